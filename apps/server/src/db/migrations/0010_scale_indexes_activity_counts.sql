-- pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it. PGlite
-- loads it in openDatabase.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "activity_counts" (
	"application_id" integer NOT NULL,
	"shard" smallint NOT NULL,
	"login_attempts" bigint DEFAULT 0 NOT NULL,
	"login_successes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_counts_application_id_shard_pk" PRIMARY KEY("application_id","shard")
);
--> statement-breakpoint
DROP INDEX "app_users_application_created_idx";--> statement-breakpoint
ALTER TABLE "activity_counts" ADD CONSTRAINT "activity_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_users_username_trgm_idx" ON "app_users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "app_users_email_trgm_idx" ON "app_users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "app_users_application_standing_idx" ON "app_users" USING btree ("application_id","is_active","is_paused","expires_at");--> statement-breakpoint
CREATE INDEX "blacklist_entries_owner_created_idx" ON "blacklist_entries" USING btree ("owner_account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "blacklist_entries_value_trgm_idx" ON "blacklist_entries" USING gin ("value" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "blacklist_entries_reason_trgm_idx" ON "blacklist_entries" USING gin ("reason" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "app_users_application_created_idx" ON "app_users" USING btree ("application_id","created_at","id");--> statement-breakpoint
-- The activity counters (schema/activity-counts.ts). Which events count as a login attempt
-- must match LOGIN_SUCCESS_EVENT and LOGIN_FAILURE_EVENTS in packages/contracts; the test
-- activity-counts.test.ts fails if they drift apart.
CREATE FUNCTION activity_counts_delta(event text, success boolean, metadata jsonb, OUT attempts integer, OUT successes integer)
LANGUAGE sql IMMUTABLE AS $$
  SELECT
    (event IN ('user_login', 'login_failed', 'account_disabled', 'account_expired', 'version_mismatch',
               'hwid_mismatch', 'login_blocked_ip', 'login_blocked_username', 'login_blocked_hwid')
     AND (metadata->>'action') IS DISTINCT FROM 'register')::int,
    (event = 'user_login' AND success)::int
$$;--> statement-breakpoint
CREATE FUNCTION activity_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_counts AS c (application_id, shard, login_attempts, login_successes)
  SELECT r.application_id, pg_backend_pid() % 16, sum(d.attempts), sum(d.successes)
  FROM inserted_rows r, activity_counts_delta(r.event, r.success, r.metadata) d
  GROUP BY r.application_id
  HAVING sum(d.attempts) > 0 OR sum(d.successes) > 0
  ON CONFLICT (application_id, shard) DO UPDATE
    SET login_attempts = c.login_attempts + excluded.login_attempts,
        login_successes = c.login_successes + excluded.login_successes;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION activity_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows deleted with their application (cascade) take its counters with them.
  INSERT INTO activity_counts AS c (application_id, shard, login_attempts, login_successes)
  SELECT r.application_id, pg_backend_pid() % 16, -sum(d.attempts), -sum(d.successes)
  FROM deleted_rows r, activity_counts_delta(r.event, r.success, r.metadata) d
  WHERE EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
  GROUP BY r.application_id
  HAVING sum(d.attempts) > 0 OR sum(d.successes) > 0
  ON CONFLICT (application_id, shard) DO UPDATE
    SET login_attempts = c.login_attempts + excluded.login_attempts,
        login_successes = c.login_successes + excluded.login_successes;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER activity_counts_insert AFTER INSERT ON activity_logs
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_counts_after_insert();--> statement-breakpoint
CREATE TRIGGER activity_counts_delete AFTER DELETE ON activity_logs
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_counts_after_delete();--> statement-breakpoint
-- The rows already logged.
INSERT INTO activity_counts (application_id, shard, login_attempts, login_successes)
SELECT r.application_id, 0, sum(d.attempts), sum(d.successes)
FROM activity_logs r, activity_counts_delta(r.event, r.success, r.metadata) d
GROUP BY r.application_id
HAVING sum(d.attempts) > 0 OR sum(d.successes) > 0;