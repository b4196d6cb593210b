CREATE TABLE "activity_hourly_counts" (
	"application_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"shard" smallint NOT NULL,
	"row_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_hourly_counts_application_id_hour_event_shard_pk" PRIMARY KEY("application_id","hour","event","shard")
);
--> statement-breakpoint
CREATE TABLE "live_session_samples" (
	"application_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"live_sessions" integer NOT NULL,
	CONSTRAINT "live_session_samples_application_id_hour_pk" PRIMARY KEY("application_id","hour")
);
--> statement-breakpoint
CREATE TABLE "session_start_hourly_counts" (
	"application_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"shard" smallint NOT NULL,
	"session_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "session_start_hourly_counts_application_id_hour_shard_pk" PRIMARY KEY("application_id","hour","shard")
);
--> statement-breakpoint
ALTER TABLE "activity_hourly_counts" ADD CONSTRAINT "activity_hourly_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_session_samples" ADD CONSTRAINT "live_session_samples_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_start_hourly_counts" ADD CONSTRAINT "session_start_hourly_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The charts' hourly buckets (schema/activity-buckets.ts), kept like the running totals of
-- 0012: one upsert per statement that writes activity_logs, in key order (no deadlock between
-- writers), sharded by the writing session. Hours are UTC whatever the session's TimeZone.
CREATE FUNCTION activity_hourly_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_hourly_counts AS c (application_id, hour, event, shard, row_count)
  SELECT r.application_id, date_trunc('hour', r.created_at, 'UTC'), r.event, pg_backend_pid() % 16, count(*)
  FROM inserted_rows r
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (application_id, hour, event, shard) DO UPDATE
    SET row_count = c.row_count + excluded.row_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION activity_hourly_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows deleted with their application (cascade) take its buckets with them: the EXISTS
  -- leaves those alone. A shard may go below zero (the deleting session is not the one that
  -- inserted); only the sum over the shards means anything.
  INSERT INTO activity_hourly_counts AS c (application_id, hour, event, shard, row_count)
  SELECT r.application_id, date_trunc('hour', r.created_at, 'UTC'), r.event, pg_backend_pid() % 16, -count(*)
  FROM deleted_rows r
  WHERE EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (application_id, hour, event, shard) DO UPDATE
    SET row_count = c.row_count + excluded.row_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER activity_hourly_counts_insert AFTER INSERT ON activity_logs
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_hourly_counts_after_insert();--> statement-breakpoint
CREATE TRIGGER activity_hourly_counts_delete AFTER DELETE ON activity_logs
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_hourly_counts_after_delete();--> statement-breakpoint
-- Session starts: an AFTER INSERT statement trigger only. A heartbeat is an UPDATE and never
-- fires it; a start retried with the same token is an ON CONFLICT update, which PostgreSQL
-- leaves out of the insert's transition table.
CREATE FUNCTION session_start_hourly_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO session_start_hourly_counts AS c (application_id, hour, shard, session_count)
  SELECT r.application_id, date_trunc('hour', r.started_at, 'UTC'), pg_backend_pid() % 16, count(*)
  FROM inserted_rows r
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (application_id, hour, shard) DO UPDATE
    SET session_count = c.session_count + excluded.session_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER session_start_hourly_counts_insert AFTER INSERT ON app_user_sessions
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION session_start_hourly_counts_after_insert();--> statement-breakpoint
-- The rows already there (the triggers above hold their tables' locks until this commits).
INSERT INTO activity_hourly_counts (application_id, hour, event, shard, row_count)
SELECT application_id, date_trunc('hour', created_at, 'UTC'), event, 0, count(*)
FROM activity_logs
GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO session_start_hourly_counts (application_id, hour, shard, session_count)
SELECT application_id, date_trunc('hour', started_at, 'UTC'), 0, count(*)
FROM app_user_sessions
GROUP BY 1, 2;
