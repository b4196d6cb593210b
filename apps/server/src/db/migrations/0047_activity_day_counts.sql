-- Partly hand-written. The retention sweep drops a partition of the activity log (a range of
-- whole UTC days) and must take its rows out of the running totals. It grouped the partition's
-- rows for that: a scan of about a million rows a range, most of the sweep's database time. The
-- groups are now kept as the rows arrive, per day, by the counter fold (activity_day_counts), so
-- the sweep reads a range's groups instead.
CREATE TABLE "activity_day_counts" (
	"application_id" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"ip_address" text,
	"row_count" bigint NOT NULL,
	"success_count" bigint NOT NULL,
	"login_attempts" bigint NOT NULL,
	"login_successes" bigint NOT NULL,
	CONSTRAINT "activity_day_counts_group_key" UNIQUE NULLS NOT DISTINCT("day","application_id","event","ip_address")
);
--> statement-breakpoint
ALTER TABLE "activity_day_counts" ADD CONSTRAINT "activity_day_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The day counts of the rows there are now: their groups, less the deltas still queued (the fold
-- adds those). Also the repair's, which empties the queue of the log's deltas first.
CREATE FUNCTION rebuild_activity_day_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM activity_day_counts;
  INSERT INTO activity_day_counts
    (application_id, day, event, ip_address, row_count, success_count, login_attempts, login_successes)
  SELECT application_id, day, event, ip_address,
         sum(row_count), sum(success_count), sum(login_attempts), sum(login_successes)
  FROM (
    SELECT application_id, date_trunc('day', created_at, 'UTC') AS day, event, ip_address,
           count(*) AS row_count, count(*) FILTER (WHERE success) AS success_count,
           count(*) FILTER (WHERE counts_as_login_attempt(event, metadata)) AS login_attempts,
           count(*) FILTER (WHERE counts_as_login_success(event, success)) AS login_successes
    FROM activity_logs GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT application_id, date_trunc('day', hour, 'UTC'), event, ip_address,
           -row_count, -success_count, -login_attempts, -login_successes
    FROM activity_counter_deltas WHERE event IS NOT NULL AND hour <> '-infinity'
  ) g
  WHERE EXISTS (SELECT 1 FROM applications a WHERE a.id = g.application_id)
  GROUP BY 1, 2, 3, 4
  HAVING sum(row_count) <> 0 OR sum(success_count) <> 0 OR sum(login_attempts) <> 0
      OR sum(login_successes) <> 0;
$$;--> statement-breakpoint
-- Filled with the log held still: no row added or deleted, no delta folded meanwhile (the fold
-- deletes from the queue). A partition detached but not yet dropped (a process gone between
-- the sweep's two steps) is still in the totals and will be subtracted when the sweep drops it,
-- so its rows are counted too. Instances of the version before this one fold without adding to
-- the day counts: a vendor upgrading instance by instance runs rebuild_activity_counters() once
-- every instance is upgraded, or the next month's sweep subtracts too little.
LOCK TABLE activity_logs IN SHARE MODE;--> statement-breakpoint
LOCK TABLE activity_counter_deltas IN EXCLUSIVE MODE;--> statement-breakpoint
SELECT rebuild_activity_day_counts();--> statement-breakpoint
DO $$
DECLARE
  leftover text;
BEGIN
  FOR leftover IN
    SELECT p.name FROM activity_log_partition_ranges() p WHERE NOT p.attached
  LOOP
    EXECUTE format($sql$
      INSERT INTO activity_day_counts AS c
        (application_id, day, event, ip_address, row_count, success_count, login_attempts, login_successes)
      SELECT r.application_id, date_trunc('day', r.created_at, 'UTC'), r.event, r.ip_address, count(*),
             count(*) FILTER (WHERE r.success),
             count(*) FILTER (WHERE counts_as_login_attempt(r.event, r.metadata)),
             count(*) FILTER (WHERE counts_as_login_success(r.event, r.success))
      FROM %I r
      WHERE EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
      GROUP BY 1, 2, 3, 4
      ON CONFLICT (application_id, day, event, ip_address) DO UPDATE
        SET row_count = c.row_count + excluded.row_count,
            success_count = c.success_count + excluded.success_count,
            login_attempts = c.login_attempts + excluded.login_attempts,
            login_successes = c.login_successes + excluded.login_successes$sql$, leftover);
  END LOOP;
END $$;--> statement-breakpoint
-- Drops a partition already detached from activity_logs (the sweep detaches it in a transaction
-- of its own, so the lock that detaching takes on the whole log is held for a moment only),
-- taking its rows out of the counters, and answers how many it held. Its days' groups are
-- subtracted by application, event and address (hour '-infinity', which the fold leaves out of
-- the hourly and day buckets), and deleted with its hours' chart buckets.
--
-- Every delta of the partition's rows is either folded, so in its days' groups, or still
-- queued, and the queued ones are deleted unfolded, as their rows are. A fold that has taken
-- some of them but not committed holds their rows' locks, so their deletion here waits for it and
-- then finds them gone, and the groups read after it include them; a fold after this deletion
-- finds them gone too. Nothing else can be queued for those days: rows are written at the
-- present time, and the range is past the retention.
CREATE OR REPLACE FUNCTION drop_detached_activity_log_partition(name text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  subtracted bigint;
  unfolded bigint;
  bounds record;
BEGIN
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', name);
  SELECT to_timestamp(coalesce(p.range_start, '-infinity'::float8) / 1000) AS first_day,
         to_timestamp(p.range_end / 1000) AS end_day
    INTO bounds FROM activity_log_partition_ranges() p WHERE p.name = drop_detached_activity_log_partition.name;
  WITH queued AS (
    DELETE FROM activity_counter_deltas
    WHERE event IS NOT NULL AND hour <> '-infinity'
      AND hour >= bounds.first_day AND hour < bounds.end_day
    RETURNING row_count
  )
  SELECT coalesce(sum(row_count), 0) INTO unfolded FROM queued;
  DELETE FROM activity_hourly_counts WHERE hour >= bounds.first_day AND hour < bounds.end_day;
  WITH days AS (
    DELETE FROM activity_day_counts WHERE day >= bounds.first_day AND day < bounds.end_day
    RETURNING *
  ), deltas AS (
    INSERT INTO activity_counter_deltas
      (application_id, hour, event, ip_address, row_count, success_count, login_attempts, login_successes)
    SELECT application_id, '-infinity', event, ip_address,
           -sum(row_count), -sum(success_count), -sum(login_attempts), -sum(login_successes)
    FROM days
    GROUP BY application_id, event, ip_address
    RETURNING row_count
  )
  SELECT coalesce(-sum(row_count), 0) INTO subtracted FROM deltas;
  EXECUTE format('DROP TABLE %I', name);
  RETURN subtracted + unfolded;
END $$;--> statement-breakpoint
-- The repair, as before, with the day counts rebuilt beside the other counters.
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
  PERFORM rebuild_activity_day_counts();
  PERFORM rebuild_activity_log_terms();
  SELECT count(*) INTO counted FROM activity_logs;
  RETURN counted;
END $$;
