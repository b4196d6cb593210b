CREATE TABLE "activity_counter_deltas" (
	"application_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"event" text,
	"ip_address" text,
	"row_count" integer NOT NULL,
	"success_count" integer NOT NULL,
	"login_attempts" integer NOT NULL,
	"login_successes" integer NOT NULL
);
--> statement-breakpoint
-- Hand-written. The activity counters stop being upserted by triggers on every write: the
-- triggers now append deltas to activity_counter_deltas in the same statement as the rows, and
-- the server folds them into the counters in batches (modules/activity/fold-counter-deltas.ts).
DROP TRIGGER activity_counts_insert ON activity_logs;--> statement-breakpoint
DROP TRIGGER activity_counts_delete ON activity_logs;--> statement-breakpoint
DROP TRIGGER activity_totals_insert ON activity_logs;--> statement-breakpoint
DROP TRIGGER activity_totals_delete ON activity_logs;--> statement-breakpoint
DROP TRIGGER activity_hourly_counts_insert ON activity_logs;--> statement-breakpoint
DROP TRIGGER activity_hourly_counts_delete ON activity_logs;--> statement-breakpoint
DROP TRIGGER session_start_hourly_counts_insert ON app_user_sessions;--> statement-breakpoint
DROP FUNCTION activity_counts_after_insert();--> statement-breakpoint
DROP FUNCTION activity_counts_after_delete();--> statement-breakpoint
DROP FUNCTION activity_totals_after_insert();--> statement-breakpoint
DROP FUNCTION activity_totals_after_delete();--> statement-breakpoint
DROP FUNCTION activity_hourly_counts_after_insert();--> statement-breakpoint
DROP FUNCTION activity_hourly_counts_after_delete();--> statement-breakpoint
DROP FUNCTION session_start_hourly_counts_after_insert();--> statement-breakpoint
ALTER TABLE "activity_counts" DROP CONSTRAINT "activity_counts_application_id_shard_pk";--> statement-breakpoint
ALTER TABLE "activity_event_counts" DROP CONSTRAINT "activity_event_counts_application_id_event_shard_pk";--> statement-breakpoint
ALTER TABLE "activity_hourly_counts" DROP CONSTRAINT "activity_hourly_counts_application_id_hour_event_shard_pk";--> statement-breakpoint
ALTER TABLE "session_start_hourly_counts" DROP CONSTRAINT "session_start_hourly_counts_application_id_hour_shard_pk";--> statement-breakpoint
-- The shards each writer once chose (pg_backend_pid() % 16) are folded into one row per key:
-- a single fold a second has no lock to share out.
WITH sums AS (
  SELECT application_id, min(shard) AS keep, sum(login_attempts) AS attempts, sum(login_successes) AS successes
  FROM activity_counts GROUP BY application_id
), kept AS (
  UPDATE activity_counts c SET login_attempts = s.attempts, login_successes = s.successes
  FROM sums s WHERE c.application_id = s.application_id AND c.shard = s.keep
  RETURNING 1
)
DELETE FROM activity_counts c USING sums s
WHERE c.application_id = s.application_id AND c.shard <> s.keep;--> statement-breakpoint
WITH sums AS (
  SELECT application_id, event, min(shard) AS keep, sum(row_count) AS total, sum(success_count) AS successes
  FROM activity_event_counts GROUP BY application_id, event
), kept AS (
  UPDATE activity_event_counts c SET row_count = s.total, success_count = s.successes
  FROM sums s WHERE c.application_id = s.application_id AND c.event = s.event AND c.shard = s.keep
  RETURNING 1
)
DELETE FROM activity_event_counts c USING sums s
WHERE c.application_id = s.application_id AND c.event = s.event AND c.shard <> s.keep;--> statement-breakpoint
WITH sums AS (
  SELECT application_id, hour, event, min(shard) AS keep, sum(row_count) AS total
  FROM activity_hourly_counts GROUP BY application_id, hour, event
), kept AS (
  UPDATE activity_hourly_counts c SET row_count = s.total
  FROM sums s WHERE c.application_id = s.application_id AND c.hour = s.hour AND c.event = s.event AND c.shard = s.keep
  RETURNING 1
)
DELETE FROM activity_hourly_counts c USING sums s
WHERE c.application_id = s.application_id AND c.hour = s.hour AND c.event = s.event AND c.shard <> s.keep;--> statement-breakpoint
WITH sums AS (
  SELECT application_id, hour, min(shard) AS keep, sum(session_count) AS total
  FROM session_start_hourly_counts GROUP BY application_id, hour
), kept AS (
  UPDATE session_start_hourly_counts c SET session_count = s.total
  FROM sums s WHERE c.application_id = s.application_id AND c.hour = s.hour AND c.shard = s.keep
  RETURNING 1
)
DELETE FROM session_start_hourly_counts c USING sums s
WHERE c.application_id = s.application_id AND c.hour = s.hour AND c.shard <> s.keep;--> statement-breakpoint
ALTER TABLE "activity_counts" ADD PRIMARY KEY ("application_id");--> statement-breakpoint
ALTER TABLE "activity_event_counts" ADD CONSTRAINT "activity_event_counts_application_id_event_pk" PRIMARY KEY("application_id","event");--> statement-breakpoint
ALTER TABLE "activity_hourly_counts" ADD CONSTRAINT "activity_hourly_counts_application_id_hour_event_pk" PRIMARY KEY("application_id","hour","event");--> statement-breakpoint
ALTER TABLE "session_start_hourly_counts" ADD CONSTRAINT "session_start_hourly_counts_application_id_hour_pk" PRIMARY KEY("application_id","hour");--> statement-breakpoint
ALTER TABLE "activity_counts" DROP COLUMN "shard";--> statement-breakpoint
ALTER TABLE "activity_event_counts" DROP COLUMN "shard";--> statement-breakpoint
ALTER TABLE "activity_hourly_counts" DROP COLUMN "shard";--> statement-breakpoint
ALTER TABLE "session_start_hourly_counts" DROP COLUMN "shard";--> statement-breakpoint
-- A queue: rows come and go every second, so vacuum it as soon as a few thousand are dead.
ALTER TABLE activity_counter_deltas SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000);--> statement-breakpoint
-- Which rows count as a login attempt and a successful login (LOGIN_SUCCESS_EVENT and
-- LOGIN_FAILURE_EVENTS in packages/contracts; activity-counts.test.ts fails if they drift apart).
-- Scalar SQL functions, so the planner inlines them: the set-returning activity_counts_delta
-- of migration 0010 ran as a separate statement for every row.
CREATE FUNCTION counts_as_login_attempt(event text, metadata jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT event IN ('user_login', 'login_failed', 'account_disabled', 'account_expired', 'version_mismatch',
                   'hwid_mismatch', 'login_blocked_ip', 'login_blocked_username', 'login_blocked_hwid')
     AND (metadata->>'action') IS DISTINCT FROM 'register'
$$;--> statement-breakpoint
CREATE FUNCTION counts_as_login_success(event text, success boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT event = 'user_login' AND success
$$;--> statement-breakpoint
DROP FUNCTION activity_counts_delta(text, boolean, jsonb);--> statement-breakpoint
-- One delta row per group of the statement's rows (a batch of a hundred logins of one
-- application and hour from one address is one row): added for an insert, subtracted for a
-- delete. Both triggers name their transition table changed_rows, so one function serves both.
CREATE FUNCTION activity_counter_deltas_of_changed_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := CASE TG_OP WHEN 'DELETE' THEN -1 ELSE 1 END;
BEGIN
  INSERT INTO activity_counter_deltas
    (application_id, hour, event, ip_address, row_count, success_count, login_attempts, login_successes)
  SELECT r.application_id, date_trunc('hour', r.created_at, 'UTC'), r.event, r.ip_address,
         direction * count(*), direction * count(*) FILTER (WHERE r.success),
         direction * count(*) FILTER (WHERE counts_as_login_attempt(r.event, r.metadata)),
         direction * count(*) FILTER (WHERE counts_as_login_success(r.event, r.success))
  FROM changed_rows r
  GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Session starts: an AFTER INSERT statement trigger only. A heartbeat is an UPDATE and never
-- fires it; a start retried with the same token is an ON CONFLICT update, which PostgreSQL
-- leaves out of the insert's transition table.
CREATE FUNCTION session_start_deltas_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_counter_deltas
    (application_id, hour, event, ip_address, row_count, success_count, login_attempts, login_successes)
  SELECT r.application_id, date_trunc('hour', r.started_at, 'UTC'), NULL, NULL, count(*), 0, 0, 0
  FROM inserted_rows r
  GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER activity_counter_deltas_insert AFTER INSERT ON activity_logs
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_counter_deltas_of_changed_rows();--> statement-breakpoint
CREATE TRIGGER activity_counter_deltas_delete AFTER DELETE ON activity_logs
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_counter_deltas_of_changed_rows();--> statement-breakpoint
CREATE TRIGGER session_start_deltas_insert AFTER INSERT ON app_user_sessions
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION session_start_deltas_after_insert();
--> statement-breakpoint
-- The repair: every counter over activity_logs recomputed from the rows (`select
-- rebuild_activity_counters()`), for an operator who edited rows by hand or restored a partial
-- backup; the deltas never lose a count otherwise. Writers of the log wait for it (SHARE ROW
-- EXCLUSIVE: no insert or delete runs meanwhile), so the recount and the dropped deltas describe
-- the same rows. Session starts are history, not a count over rows, and are left alone.
CREATE FUNCTION rebuild_activity_counters() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  counted bigint;
BEGIN
  LOCK TABLE activity_logs IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM activity_counter_deltas WHERE event IS NOT NULL;
  DELETE FROM activity_counts;
  DELETE FROM activity_event_counts;
  DELETE FROM activity_address_counts;
  DELETE FROM activity_event_address_counts;
  DELETE FROM activity_hourly_counts;
  INSERT INTO activity_counts (application_id, login_attempts, login_successes)
  SELECT application_id, count(*) FILTER (WHERE counts_as_login_attempt(event, metadata)),
         count(*) FILTER (WHERE counts_as_login_success(event, success))
  FROM activity_logs GROUP BY application_id;
  INSERT INTO activity_event_counts (application_id, event, row_count, success_count)
  SELECT application_id, event, count(*), count(*) FILTER (WHERE success)
  FROM activity_logs GROUP BY application_id, event;
  INSERT INTO activity_address_counts (application_id, ip_address, row_count)
  SELECT application_id, ip_address, count(*)
  FROM activity_logs WHERE ip_address IS NOT NULL GROUP BY application_id, ip_address;
  INSERT INTO activity_event_address_counts (application_id, event, ip_address, row_count)
  SELECT application_id, event, ip_address, count(*)
  FROM activity_logs WHERE ip_address IS NOT NULL GROUP BY application_id, event, ip_address;
  INSERT INTO activity_hourly_counts (application_id, hour, event, row_count)
  SELECT application_id, date_trunc('hour', created_at, 'UTC'), event, count(*)
  FROM activity_logs GROUP BY 1, 2, 3;
  SELECT count(*) INTO counted FROM activity_logs;
  RETURN counted;
END $$;
