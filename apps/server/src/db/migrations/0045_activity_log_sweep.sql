-- Partly hand-written. The retention sweep of a month of the activity log within a second at
-- ten million rows:
--
-- * The search terms get a btree on (application_id, last_seen_day): the sweep's prune of terms
--   whose every row is gone read all of an application's terms to find the few past the
--   retention, ~0.3 s at a million names.
-- * A dropped partition's rows are grouped for their counter deltas by a statement that may run
--   in parallel: CREATE TABLE AS may, an INSERT ... SELECT may not (PostgreSQL plans no
--   statement that writes with parallel workers). The two functions the grouping calls are
--   marked PARALLEL SAFE, which they are (immutable SQL over their arguments); unmarked, they
--   kept every plan that calls them serial.
CREATE INDEX "activity_log_terms_application_day_idx" ON "activity_log_terms" USING btree ("application_id","last_seen_day");--> statement-breakpoint
ALTER FUNCTION counts_as_login_attempt(text, jsonb) PARALLEL SAFE;--> statement-breakpoint
ALTER FUNCTION counts_as_login_success(text, boolean) PARALLEL SAFE;--> statement-breakpoint
-- As in the migration that made it, except that the rows' groups are gathered into a temporary
-- table by a statement of their own (parallel where the server allows it), then queued as
-- deltas from there.
CREATE OR REPLACE FUNCTION drop_detached_activity_log_partition(name text) RETURNS bigint
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
    CREATE TEMPORARY TABLE dropped_activity_groups AS
    SELECT r.application_id, r.event, r.ip_address, count(*) AS row_count,
           count(*) FILTER (WHERE r.success) AS success_count,
           count(*) FILTER (WHERE counts_as_login_attempt(r.event, r.metadata)) AS login_attempts,
           count(*) FILTER (WHERE counts_as_login_success(r.event, r.success)) AS login_successes
    FROM %I r
    GROUP BY r.application_id, r.event, r.ip_address$sql$, name);
  INSERT INTO activity_counter_deltas
    (application_id, hour, event, ip_address, row_count, success_count, login_attempts, login_successes)
  SELECT application_id, '-infinity', event, ip_address,
         -row_count, -success_count, -login_attempts, -login_successes
  FROM dropped_activity_groups;
  SELECT coalesce(sum(row_count), 0) INTO dropped FROM dropped_activity_groups;
  DROP TABLE dropped_activity_groups;
  EXECUTE format('DROP TABLE %I', name);
  RETURN dropped;
END $$;
