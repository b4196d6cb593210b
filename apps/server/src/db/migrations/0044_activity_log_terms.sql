-- Partly hand-written. The activity log's search stops reading trigram indexes over every row:
-- each username and address the log holds is kept once in activity_log_terms, with the trigram
-- index there, and the log gets btrees to find a term's rows. The terms are kept by the counter
-- fold (modules/activity/fold-counter-deltas.ts), from the deltas the log's statement trigger
-- already writes, which now carry the username: a sign-in pays no statement for them, and a
-- search folds first, as the counters' reads do, so it misses no row written before it.
CREATE TABLE "activity_log_terms" (
	"application_id" integer NOT NULL,
	"field" text NOT NULL,
	"value" text NOT NULL,
	"last_seen_day" timestamp with time zone NOT NULL,
	CONSTRAINT "activity_log_terms_application_id_field_value_pk" PRIMARY KEY("application_id","field","value")
);
--> statement-breakpoint
ALTER TABLE "activity_log_terms" ADD CONSTRAINT "activity_log_terms_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_counter_deltas" ADD COLUMN "username" text;--> statement-breakpoint
-- As before, with the rows' usernames (the fold's terms); a deletion's deltas carry none.
CREATE OR REPLACE FUNCTION activity_counter_deltas_of_changed_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := CASE TG_OP WHEN 'DELETE' THEN -1 ELSE 1 END;
BEGIN
  INSERT INTO activity_counter_deltas
    (application_id, hour, event, ip_address, username, row_count, success_count, login_attempts, login_successes)
  SELECT r.application_id, date_trunc('hour', r.created_at, 'UTC'), r.event, r.ip_address,
         CASE WHEN direction = 1 THEN r.username END,
         direction * count(*), direction * count(*) FILTER (WHERE r.success),
         direction * count(*) FILTER (WHERE counts_as_login_attempt(r.event, r.metadata)),
         direction * count(*) FILTER (WHERE counts_as_login_success(r.event, r.success))
  FROM changed_rows r
  GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The repair drops the queued deltas of the log, and with them the terms they would have
-- added: it rebuilds the terms from the rows as well.
CREATE OR REPLACE FUNCTION rebuild_activity_log_terms() RETURNS void LANGUAGE sql AS $$
  DELETE FROM activity_log_terms;
  INSERT INTO activity_log_terms (application_id, field, value, last_seen_day)
  SELECT application_id, 'username', username, date_trunc('day', max(created_at), 'UTC')
  FROM activity_logs WHERE username IS NOT NULL GROUP BY application_id, username
  UNION ALL
  SELECT application_id, 'ip_address', ip_address, date_trunc('day', max(created_at), 'UTC')
  FROM activity_logs WHERE ip_address IS NOT NULL GROUP BY application_id, ip_address
  ON CONFLICT (application_id, field, value) DO UPDATE
    SET last_seen_day = greatest(activity_log_terms.last_seen_day, excluded.last_seen_day);
$$;--> statement-breakpoint
-- The terms of the rows already there, before the index (one build, not a million inserts into
-- it). The log is locked against writes meanwhile, so no row slips between this copy and the
-- deltas that carry usernames.
LOCK TABLE activity_logs IN SHARE MODE;--> statement-breakpoint
SELECT rebuild_activity_log_terms();--> statement-breakpoint
CREATE INDEX "activity_log_terms_value_trgm_idx" ON "activity_log_terms" USING gin ("value" gin_trgm_ops);--> statement-breakpoint
-- The repair, as before, and the terms.
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
  PERFORM rebuild_activity_log_terms();
  SELECT count(*) INTO counted FROM activity_logs;
  RETURN counted;
END $$;--> statement-breakpoint
CREATE INDEX "activity_logs_application_username_idx" ON "activity_logs" USING btree ("application_id","username");--> statement-breakpoint
CREATE INDEX "activity_logs_application_ip_address_idx" ON "activity_logs" USING btree ("application_id","ip_address");--> statement-breakpoint
DROP INDEX "activity_logs_username_trgm_idx";--> statement-breakpoint
DROP INDEX "activity_logs_ip_address_trgm_idx";
