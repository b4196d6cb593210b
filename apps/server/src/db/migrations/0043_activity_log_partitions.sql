-- Hand-written. The activity log becomes a table partitioned by ranges of days (UTC) on
-- created_at, so the retention sweep drops a whole range instead of deleting its rows one by one
-- (each delete a dead tuple, five index entries and a counter delta), and reads bounded in time
-- touch only their ranges.
--
-- Partitions, named for their ranges in UTC days:
--   activity_logs_YYYYMMDD_YYYYMMDD  [the first day, the second day): a twelfth of the retention
--   activity_logs_before_YYYYMMDD    (everything earlier, that day): the rows an installation had
--                                    before this migration, kept where they are (no copy)
--   activity_logs_default            anything outside the ranges made so far (a clock far ahead,
--                                    a range not yet made); moved in when its range is made
--
-- The table's unique key must hold the partition key, so it becomes (id, created_at); one
-- identity sequence still numbers every row, continuing where the old table's stopped.
DROP TRIGGER activity_counter_deltas_insert ON activity_logs;--> statement-breakpoint
DROP TRIGGER activity_counter_deltas_delete ON activity_logs;--> statement-breakpoint
ALTER TABLE activity_logs RENAME TO activity_logs_unpartitioned;--> statement-breakpoint
ALTER SEQUENCE activity_logs_id_seq RENAME TO activity_logs_unpartitioned_id_seq;--> statement-breakpoint
ALTER INDEX activity_logs_application_created_idx RENAME TO activity_logs_unpartitioned_application_created_idx;--> statement-breakpoint
ALTER INDEX activity_logs_application_event_created_idx RENAME TO activity_logs_unpartitioned_application_event_created_idx;--> statement-breakpoint
ALTER INDEX activity_logs_app_user_idx RENAME TO activity_logs_unpartitioned_app_user_idx;--> statement-breakpoint
ALTER INDEX activity_logs_username_trgm_idx RENAME TO activity_logs_unpartitioned_username_trgm_idx;--> statement-breakpoint
ALTER INDEX activity_logs_ip_address_trgm_idx RENAME TO activity_logs_unpartitioned_ip_address_trgm_idx;--> statement-breakpoint
CREATE TABLE "activity_logs" (
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "activity_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"application_id" integer NOT NULL,
	"app_user_id" uuid,
	"username" text,
	"event" text NOT NULL,
	"success" boolean NOT NULL,
	"ip_address" text,
	"error_message" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activity_logs_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_logs_application_created_idx" ON "activity_logs" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "activity_logs_application_event_created_idx" ON "activity_logs" USING btree ("application_id","event","created_at");--> statement-breakpoint
CREATE INDEX "activity_logs_app_user_idx" ON "activity_logs" USING btree ("app_user_id");--> statement-breakpoint
CREATE INDEX "activity_logs_username_trgm_idx" ON "activity_logs" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "activity_logs_ip_address_trgm_idx" ON "activity_logs" USING gin ("ip_address" gin_trgm_ops);--> statement-breakpoint
-- The numbering continues where the old table's stopped (the owner-event feed reads by id).
SELECT setval('activity_logs_id_seq', last_value, is_called) FROM activity_logs_unpartitioned_id_seq;--> statement-breakpoint
ALTER TABLE activity_logs_unpartitioned ALTER COLUMN id DROP IDENTITY;--> statement-breakpoint
ALTER TABLE activity_logs_unpartitioned DROP CONSTRAINT activity_logs_pkey;--> statement-breakpoint
-- The old rows stay in their table, attached as the partition of everything before tomorrow:
-- its indexes match the new table's and are taken over, so only the (id, created_at) key is
-- built. An installation with no rows yet has nothing to keep.
DO $$
DECLARE
  bound timestamptz;
  kept text;
BEGIN
  IF EXISTS (SELECT 1 FROM activity_logs_unpartitioned) THEN
    SELECT date_trunc('day', greatest(now(), max(created_at)), 'UTC') + interval '24 hours'
      INTO bound FROM activity_logs_unpartitioned;
    kept := 'activity_logs_before_' || to_char(bound AT TIME ZONE 'UTC', 'YYYYMMDD');
    EXECUTE format('ALTER TABLE activity_logs_unpartitioned RENAME TO %I', kept);
    EXECUTE format('ALTER TABLE activity_logs ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)',
                   kept, bound);
  ELSE
    DROP TABLE activity_logs_unpartitioned;
  END IF;
END $$;--> statement-breakpoint
CREATE TABLE activity_logs_default PARTITION OF activity_logs DEFAULT;--> statement-breakpoint
-- The counter deltas, as before: statement triggers on the partitioned table see the rows of
-- every partition a statement wrote.
CREATE TRIGGER activity_counter_deltas_insert AFTER INSERT ON activity_logs
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_counter_deltas_of_changed_rows();--> statement-breakpoint
CREATE TRIGGER activity_counter_deltas_delete AFTER DELETE ON activity_logs
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_counter_deltas_of_changed_rows();--> statement-breakpoint
-- Every partition of the log, and every table left detached from it, with its range from its
-- name (UTC days): `activity_logs_YYYYMMDD_YYYYMMDD` from the first day to the second (excluded),
-- `activity_logs_before_YYYYMMDD` everything before that day (range_start null). Epoch
-- milliseconds, so both drivers read them as numbers.
CREATE FUNCTION activity_log_partition_ranges()
RETURNS TABLE (name text, range_start float8, range_end float8, attached boolean)
LANGUAGE sql STABLE AS $$
  SELECT c.relname::text,
         CASE WHEN c.relname LIKE 'activity\_logs\_before\_%' THEN NULL
              ELSE extract(epoch FROM to_date(substr(c.relname, 15, 8), 'YYYYMMDD')::timestamp AT TIME ZONE 'UTC') * 1000 END,
         extract(epoch FROM to_date(right(c.relname, 8), 'YYYYMMDD')::timestamp AT TIME ZONE 'UTC') * 1000,
         c.relispartition
  FROM pg_class c
  WHERE c.relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = 'activity_logs'::regclass)
    AND c.relkind = 'r' AND c.relname ~ '^activity_logs_([0-9]{8}_|before_)[0-9]{8}$'
$$;--> statement-breakpoint
-- Makes partitions of days_each days from first_day's UTC day until one holds through, each
-- starting where the partition before it ends, and answers how many it made. A day already in a
-- partition is skipped; a new one stops where the next begins. Each takes the rows the default
-- partition holds for its range. It is made apart and attached (a lock that lets writes and
-- reads go on), not created as a partition (a lock that stops them); the default partition is
-- locked meanwhile, so no row for the range lands there.
CREATE FUNCTION create_activity_log_partitions(first_day timestamptz, through timestamptz, days_each integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  day timestamptz := date_trunc('day', first_day, 'UTC');
  covered_until timestamptz;
  next_start timestamptz;
  part_end timestamptz;
  name text;
  made integer := 0;
BEGIN
  WHILE day <= through LOOP
    SELECT to_timestamp(max(p.range_end) / 1000) INTO covered_until
    FROM activity_log_partition_ranges() p
    WHERE coalesce(to_timestamp(p.range_start / 1000) <= day, true) AND day < to_timestamp(p.range_end / 1000);
    IF covered_until IS NOT NULL THEN
      day := covered_until;
      CONTINUE;
    END IF;
    SELECT to_timestamp(min(p.range_start) / 1000) INTO next_start
    FROM activity_log_partition_ranges() p WHERE to_timestamp(p.range_start / 1000) > day;
    part_end := least(day + days_each * interval '24 hours', coalesce(next_start, 'infinity'));
    name := 'activity_logs_' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD') || '_'
            || to_char(part_end AT TIME ZONE 'UTC', 'YYYYMMDD');
    LOCK TABLE activity_logs_default IN ACCESS EXCLUSIVE MODE;
    EXECUTE format('CREATE TABLE %I (LIKE activity_logs INCLUDING DEFAULTS)', name);
    EXECUTE format('WITH moved AS (DELETE FROM activity_logs_default WHERE created_at >= %L AND created_at < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
                   day, part_end, name);
    EXECUTE format('ALTER TABLE activity_logs ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                   name, day, part_end);
    made := made + 1;
    day := part_end;
  END LOOP;
  RETURN made;
END $$;--> statement-breakpoint
-- Drops a partition already detached from activity_logs (by the retention sweep, in a transaction
-- of its own, so the lock that detaching takes on the whole log is held for a moment only),
-- subtracting its rows from the counters first and answering how many it held. Its hours' chart
-- buckets are deleted whole (every row of those hours was in it); the rest is subtracted by
-- application, event and address (hour '-infinity', which the fold leaves out of the buckets):
-- grouped by hour as well, a month of rows from many addresses made a million delta rows.
CREATE FUNCTION drop_detached_activity_log_partition(name text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  dropped bigint;
  bounds record;
BEGIN
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', name);
  SELECT to_timestamp(coalesce(p.range_start, '-infinity'::float8) / 1000) AS first_hour,
         to_timestamp(p.range_end / 1000) AS end_hour
    INTO bounds FROM activity_log_partition_ranges() p WHERE p.name = drop_detached_activity_log_partition.name;
  DELETE FROM activity_hourly_counts WHERE hour >= bounds.first_hour AND hour < bounds.end_hour;
  EXECUTE format($sql$
    WITH deltas AS (
      INSERT INTO activity_counter_deltas
        (application_id, hour, event, ip_address, row_count, success_count, login_attempts, login_successes)
      SELECT r.application_id, '-infinity', r.event, r.ip_address,
             -count(*), -count(*) FILTER (WHERE r.success),
             -count(*) FILTER (WHERE counts_as_login_attempt(r.event, r.metadata)),
             -count(*) FILTER (WHERE counts_as_login_success(r.event, r.success))
      FROM %I r
      GROUP BY r.application_id, r.event, r.ip_address
      RETURNING row_count
    )
    SELECT coalesce(-sum(row_count), 0) FROM deltas$sql$, name) INTO dropped;
  EXECUTE format('DROP TABLE %I', name);
  RETURN dropped;
END $$;--> statement-breakpoint
-- The repair, as before, except that a partition detached but not yet dropped (a process gone
-- between the two steps) is dropped first without its deltas: the recount no longer sees it.
CREATE OR REPLACE FUNCTION rebuild_activity_counters() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  counted bigint;
  leftover text;
BEGIN
  LOCK TABLE activity_logs IN SHARE ROW EXCLUSIVE MODE;
  FOR leftover IN
    SELECT c.relname FROM pg_class c
    WHERE c.relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = 'activity_logs'::regclass)
      AND c.relkind = 'r' AND NOT c.relispartition
      AND c.relname ~ '^activity_logs_([0-9]{8}_|before_)[0-9]{8}$'
  LOOP
    EXECUTE format('DROP TABLE %I', leftover);
  END LOOP;
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
END $$;--> statement-breakpoint
-- Today and the week ahead, in partitions of 8 days (a twelfth of the default 90-day
-- retention); the retention sweep keeps a week ahead made from then on, in partitions of a
-- twelfth of the retention it is given.
SELECT create_activity_log_partitions(now(), now() + interval '7 days', 8);
