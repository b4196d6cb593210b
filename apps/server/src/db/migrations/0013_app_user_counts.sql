CREATE TABLE "app_user_counts" (
	"application_id" integer NOT NULL,
	"shard" smallint NOT NULL,
	"user_count" bigint DEFAULT 0 NOT NULL,
	"enabled_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "app_user_counts_application_id_shard_pk" PRIMARY KEY("application_id","shard")
);
--> statement-breakpoint
ALTER TABLE "app_user_counts" ADD CONSTRAINT "app_user_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The user counters (schema/app-user-counts.ts). Inserts and deletes adjust them per
-- statement, in key order; an update adjusts them only when it enables or disables a user
-- (a row trigger with a WHEN clause, so a login's stamp of the row costs nothing here).
CREATE FUNCTION app_user_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO app_user_counts AS c (application_id, shard, user_count, enabled_count)
  SELECT r.application_id, pg_backend_pid() % 16, count(*),
         count(*) FILTER (WHERE r.is_active AND NOT r.is_paused)
  FROM inserted_rows r
  GROUP BY r.application_id
  ORDER BY r.application_id
  ON CONFLICT (application_id, shard) DO UPDATE
    SET user_count = c.user_count + excluded.user_count,
        enabled_count = c.enabled_count + excluded.enabled_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION app_user_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Users deleted with their application (cascade) take its counters with them.
  INSERT INTO app_user_counts AS c (application_id, shard, user_count, enabled_count)
  SELECT r.application_id, pg_backend_pid() % 16, -count(*),
         -count(*) FILTER (WHERE r.is_active AND NOT r.is_paused)
  FROM deleted_rows r
  WHERE EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
  GROUP BY r.application_id
  ORDER BY r.application_id
  ON CONFLICT (application_id, shard) DO UPDATE
    SET user_count = c.user_count + excluded.user_count,
        enabled_count = c.enabled_count + excluded.enabled_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION app_user_counts_after_enabling() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO app_user_counts AS c (application_id, shard, user_count, enabled_count)
  VALUES (NEW.application_id, pg_backend_pid() % 16, 0,
          CASE WHEN NEW.is_active AND NOT NEW.is_paused THEN 1 ELSE -1 END)
  ON CONFLICT (application_id, shard) DO UPDATE
    SET enabled_count = c.enabled_count + excluded.enabled_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER app_user_counts_insert AFTER INSERT ON app_users
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION app_user_counts_after_insert();--> statement-breakpoint
CREATE TRIGGER app_user_counts_delete AFTER DELETE ON app_users
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION app_user_counts_after_delete();--> statement-breakpoint
CREATE TRIGGER app_user_counts_enabling AFTER UPDATE OF is_active, is_paused ON app_users
  FOR EACH ROW
  WHEN ((OLD.is_active AND NOT OLD.is_paused) IS DISTINCT FROM (NEW.is_active AND NOT NEW.is_paused))
  EXECUTE FUNCTION app_user_counts_after_enabling();--> statement-breakpoint
-- The users already there (the triggers above hold app_users' lock until this commits).
INSERT INTO app_user_counts (application_id, shard, user_count, enabled_count)
SELECT application_id, 0, count(*), count(*) FILTER (WHERE is_active AND NOT is_paused)
FROM app_users
GROUP BY application_id;
