CREATE TABLE "activity_address_counts" (
	"application_id" integer NOT NULL,
	"ip_address" text NOT NULL,
	"row_count" bigint NOT NULL,
	CONSTRAINT "activity_address_counts_application_id_ip_address_pk" PRIMARY KEY("application_id","ip_address")
);
--> statement-breakpoint
CREATE TABLE "activity_event_address_counts" (
	"application_id" integer NOT NULL,
	"event" text NOT NULL,
	"ip_address" text NOT NULL,
	"row_count" bigint NOT NULL,
	CONSTRAINT "activity_event_address_counts_application_id_event_ip_address_pk" PRIMARY KEY("application_id","event","ip_address")
);
--> statement-breakpoint
CREATE TABLE "activity_event_counts" (
	"application_id" integer NOT NULL,
	"event" text NOT NULL,
	"shard" smallint NOT NULL,
	"row_count" bigint DEFAULT 0 NOT NULL,
	"success_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_event_counts_application_id_event_shard_pk" PRIMARY KEY("application_id","event","shard")
);
--> statement-breakpoint
ALTER TABLE "activity_address_counts" ADD CONSTRAINT "activity_address_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_event_address_counts" ADD CONSTRAINT "activity_event_address_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_event_counts" ADD CONSTRAINT "activity_event_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_logs_username_trgm_idx" ON "activity_logs" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "activity_logs_ip_address_trgm_idx" ON "activity_logs" USING gin ("ip_address" gin_trgm_ops);--> statement-breakpoint
-- The running totals (schema/activity-totals.ts). Each statement that writes activity_logs
-- adds its rows' counts in one upsert per table, in key order, so two writers always take
-- the row locks they share in the same order and cannot deadlock on them.
CREATE FUNCTION activity_totals_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_event_counts AS c (application_id, event, shard, row_count, success_count)
  SELECT r.application_id, r.event, pg_backend_pid() % 16, count(*), count(*) FILTER (WHERE r.success)
  FROM inserted_rows r
  GROUP BY r.application_id, r.event
  ORDER BY r.application_id, r.event
  ON CONFLICT (application_id, event, shard) DO UPDATE
    SET row_count = c.row_count + excluded.row_count,
        success_count = c.success_count + excluded.success_count;
  INSERT INTO activity_address_counts AS c (application_id, ip_address, row_count)
  SELECT r.application_id, r.ip_address, count(*)
  FROM inserted_rows r
  WHERE r.ip_address IS NOT NULL
  GROUP BY r.application_id, r.ip_address
  ORDER BY r.application_id, r.ip_address
  ON CONFLICT (application_id, ip_address) DO UPDATE SET row_count = c.row_count + excluded.row_count;
  INSERT INTO activity_event_address_counts AS c (application_id, event, ip_address, row_count)
  SELECT r.application_id, r.event, r.ip_address, count(*)
  FROM inserted_rows r
  WHERE r.ip_address IS NOT NULL
  GROUP BY r.application_id, r.event, r.ip_address
  ORDER BY r.application_id, r.event, r.ip_address
  ON CONFLICT (application_id, event, ip_address) DO UPDATE SET row_count = c.row_count + excluded.row_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION activity_totals_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows deleted with their application (cascade) take its totals with them: the EXISTS
  -- leaves those alone. The subtracting upserts only ever update (the rows exist), in key
  -- order like the inserts; the addresses left at zero are then deleted, their locks
  -- already held.
  INSERT INTO activity_event_counts AS c (application_id, event, shard, row_count, success_count)
  SELECT r.application_id, r.event, pg_backend_pid() % 16, -count(*), -count(*) FILTER (WHERE r.success)
  FROM deleted_rows r
  WHERE EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
  GROUP BY r.application_id, r.event
  ORDER BY r.application_id, r.event
  ON CONFLICT (application_id, event, shard) DO UPDATE
    SET row_count = c.row_count + excluded.row_count,
        success_count = c.success_count + excluded.success_count;
  INSERT INTO activity_address_counts AS c (application_id, ip_address, row_count)
  SELECT r.application_id, r.ip_address, -count(*)
  FROM deleted_rows r
  WHERE r.ip_address IS NOT NULL
    AND EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
  GROUP BY r.application_id, r.ip_address
  ORDER BY r.application_id, r.ip_address
  ON CONFLICT (application_id, ip_address) DO UPDATE SET row_count = c.row_count + excluded.row_count;
  DELETE FROM activity_address_counts c
  USING (SELECT DISTINCT application_id, ip_address FROM deleted_rows) d
  WHERE c.application_id = d.application_id AND c.ip_address = d.ip_address AND c.row_count <= 0;
  INSERT INTO activity_event_address_counts AS c (application_id, event, ip_address, row_count)
  SELECT r.application_id, r.event, r.ip_address, -count(*)
  FROM deleted_rows r
  WHERE r.ip_address IS NOT NULL
    AND EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
  GROUP BY r.application_id, r.event, r.ip_address
  ORDER BY r.application_id, r.event, r.ip_address
  ON CONFLICT (application_id, event, ip_address) DO UPDATE SET row_count = c.row_count + excluded.row_count;
  DELETE FROM activity_event_address_counts c
  USING (SELECT DISTINCT application_id, event, ip_address FROM deleted_rows) d
  WHERE c.application_id = d.application_id AND c.event = d.event AND c.ip_address = d.ip_address
    AND c.row_count <= 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER activity_totals_insert AFTER INSERT ON activity_logs
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_totals_after_insert();--> statement-breakpoint
CREATE TRIGGER activity_totals_delete AFTER DELETE ON activity_logs
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_totals_after_delete();--> statement-breakpoint
-- The rows already logged (the triggers above hold activity_logs' lock until this commits).
INSERT INTO activity_event_counts (application_id, event, shard, row_count, success_count)
SELECT application_id, event, 0, count(*), count(*) FILTER (WHERE success)
FROM activity_logs
GROUP BY application_id, event;--> statement-breakpoint
INSERT INTO activity_address_counts (application_id, ip_address, row_count)
SELECT application_id, ip_address, count(*)
FROM activity_logs
WHERE ip_address IS NOT NULL
GROUP BY application_id, ip_address;--> statement-breakpoint
INSERT INTO activity_event_address_counts (application_id, event, ip_address, row_count)
SELECT application_id, event, ip_address, count(*)
FROM activity_logs
WHERE ip_address IS NOT NULL
GROUP BY application_id, event, ip_address;
