CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"app_user_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "license_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"plan_id" uuid NOT NULL,
	"key_digest" text NOT NULL,
	"key_sealed" text NOT NULL,
	"display" text NOT NULL,
	"key_suffix" text NOT NULL,
	"state" text DEFAULT 'unused' NOT NULL,
	"note" text,
	"redeem_by" timestamp with time zone,
	"used_by_user_id" uuid,
	"used_at" timestamp with time zone,
	"subscription_id" uuid,
	"granted_days" integer,
	"granted_lifetime" boolean DEFAULT false NOT NULL,
	"was_used" boolean DEFAULT false NOT NULL,
	"banned_reason" text,
	"banned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "license_keys_state" CHECK ("license_keys"."state" IN ('unused', 'used', 'banned')),
	CONSTRAINT "license_keys_used_has_time" CHECK ("license_keys"."state" <> 'used' OR "license_keys"."used_at" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "license_key_counts" (
	"application_id" integer NOT NULL,
	"shard" smallint NOT NULL,
	"unused_count" bigint DEFAULT 0 NOT NULL,
	"used_count" bigint DEFAULT 0 NOT NULL,
	"banned_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "license_key_counts_application_id_shard_pk" PRIMARY KEY("application_id","shard")
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "license_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_used_by_user_id_app_users_id_fk" FOREIGN KEY ("used_by_user_id") REFERENCES "public"."app_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_key_counts" ADD CONSTRAINT "license_key_counts_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_user_plan_idx" ON "subscriptions" USING btree ("app_user_id","plan_id");--> statement-breakpoint
CREATE INDEX "subscriptions_plan_idx" ON "subscriptions" USING btree ("plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "license_keys_application_digest_idx" ON "license_keys" USING btree ("application_id","key_digest");--> statement-breakpoint
CREATE INDEX "license_keys_application_created_idx" ON "license_keys" USING btree ("application_id","created_at","id");--> statement-breakpoint
CREATE INDEX "license_keys_application_state_idx" ON "license_keys" USING btree ("application_id","state","created_at","id");--> statement-breakpoint
CREATE INDEX "license_keys_application_plan_idx" ON "license_keys" USING btree ("application_id","plan_id","state","created_at","id");--> statement-breakpoint
CREATE INDEX "license_keys_application_suffix_idx" ON "license_keys" USING btree ("application_id","key_suffix");--> statement-breakpoint
CREATE INDEX "license_keys_note_trgm_idx" ON "license_keys" USING gin ("note" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "license_keys_used_by_idx" ON "license_keys" USING btree ("used_by_user_id");--> statement-breakpoint
CREATE INDEX "license_keys_subscription_idx" ON "license_keys" USING btree ("subscription_id");--> statement-breakpoint
-- The key counters (schema/license-key-counts.ts). Inserts and deletes adjust them per
-- statement (bulk generation inserts thousands of rows in one), in key order; an update adjusts
-- them only when it changes a key's state (a row trigger with a WHEN clause).
CREATE FUNCTION license_key_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO license_key_counts AS c (application_id, shard, unused_count, used_count, banned_count)
  SELECT r.application_id, pg_backend_pid() % 16,
         count(*) FILTER (WHERE r.state = 'unused'),
         count(*) FILTER (WHERE r.state = 'used'),
         count(*) FILTER (WHERE r.state = 'banned')
  FROM inserted_rows r
  GROUP BY r.application_id
  ORDER BY r.application_id
  ON CONFLICT (application_id, shard) DO UPDATE
    SET unused_count = c.unused_count + excluded.unused_count,
        used_count = c.used_count + excluded.used_count,
        banned_count = c.banned_count + excluded.banned_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION license_key_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Keys deleted with their application (cascade) take its counters with them.
  INSERT INTO license_key_counts AS c (application_id, shard, unused_count, used_count, banned_count)
  SELECT r.application_id, pg_backend_pid() % 16,
         -count(*) FILTER (WHERE r.state = 'unused'),
         -count(*) FILTER (WHERE r.state = 'used'),
         -count(*) FILTER (WHERE r.state = 'banned')
  FROM deleted_rows r
  WHERE EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
  GROUP BY r.application_id
  ORDER BY r.application_id
  ON CONFLICT (application_id, shard) DO UPDATE
    SET unused_count = c.unused_count + excluded.unused_count,
        used_count = c.used_count + excluded.used_count,
        banned_count = c.banned_count + excluded.banned_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION license_key_counts_after_state_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO license_key_counts AS c (application_id, shard, unused_count, used_count, banned_count)
  VALUES (NEW.application_id, pg_backend_pid() % 16,
          (NEW.state = 'unused')::int - (OLD.state = 'unused')::int,
          (NEW.state = 'used')::int - (OLD.state = 'used')::int,
          (NEW.state = 'banned')::int - (OLD.state = 'banned')::int)
  ON CONFLICT (application_id, shard) DO UPDATE
    SET unused_count = c.unused_count + excluded.unused_count,
        used_count = c.used_count + excluded.used_count,
        banned_count = c.banned_count + excluded.banned_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER license_key_counts_insert AFTER INSERT ON license_keys
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION license_key_counts_after_insert();--> statement-breakpoint
CREATE TRIGGER license_key_counts_delete AFTER DELETE ON license_keys
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION license_key_counts_after_delete();--> statement-breakpoint
CREATE TRIGGER license_key_counts_state AFTER UPDATE OF state ON license_keys
  FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state)
  EXECUTE FUNCTION license_key_counts_after_state_change();
