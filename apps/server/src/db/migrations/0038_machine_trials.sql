CREATE TABLE "machine_trials" (
	"application_id" integer NOT NULL,
	"hwid" text NOT NULL,
	"app_user_id" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	CONSTRAINT "machine_trials_application_id_hwid_pk" PRIMARY KEY("application_id","hwid")
);
--> statement-breakpoint
DROP INDEX "plans_application_name_idx";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "trial_days" integer;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "trial_entitlements" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "trial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "machine_trials" ADD CONSTRAINT "machine_trials_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_trials" ADD CONSTRAINT "machine_trials_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_trials_user_idx" ON "machine_trials" USING btree ("app_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plans_application_trial_idx" ON "plans" USING btree ("application_id") WHERE "plans"."trial";--> statement-breakpoint
CREATE UNIQUE INDEX "plans_application_name_idx" ON "plans" USING btree ("application_id",lower("name")) WHERE not "plans"."trial";