CREATE TABLE "app_user_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"app_user_id" uuid NOT NULL,
	"hwid" text NOT NULL,
	"name" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_ip" text
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "max_devices" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "self_service_reset" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "reset_cooldown_hours" integer DEFAULT 168 NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "release_inactive_after_days" integer;--> statement-breakpoint
ALTER TABLE "app_users" ADD COLUMN "device_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "app_users" ADD COLUMN "last_self_reset_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "app_user_sessions" ADD COLUMN "hwid" text;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "max_devices" integer;--> statement-breakpoint
ALTER TABLE "app_user_devices" ADD CONSTRAINT "app_user_devices_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_user_devices" ADD CONSTRAINT "app_user_devices_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_user_devices_user_hwid_idx" ON "app_user_devices" USING btree ("app_user_id","hwid");--> statement-breakpoint
-- Each user's one HWID becomes their first device, so the HWID lock holds as before.
INSERT INTO "app_user_devices" ("application_id", "app_user_id", "hwid", "first_seen_at", "last_seen_at", "last_ip")
SELECT "application_id", "id", "hwid", COALESCE("last_login", "created_at"), COALESCE("last_login", "created_at"), "last_login_ip"
FROM "app_users" WHERE "hwid" IS NOT NULL;--> statement-breakpoint
UPDATE "app_users" SET "device_count" = 1 WHERE "hwid" IS NOT NULL;
