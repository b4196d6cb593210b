CREATE TABLE "seat_leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"app_user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"hwid" text,
	"lease_minutes" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"borrowed_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "floating" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "seats" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "lease_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "max_borrow_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "seat_leases" ADD CONSTRAINT "seat_leases_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_leases" ADD CONSTRAINT "seat_leases_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seat_leases_user_idx" ON "seat_leases" USING btree ("app_user_id","expires_at");--> statement-breakpoint
CREATE INDEX "seat_leases_application_idx" ON "seat_leases" USING btree ("application_id","expires_at");--> statement-breakpoint
CREATE INDEX "seat_leases_token_idx" ON "seat_leases" USING btree ("token_hash");--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_floating_has_seats" CHECK (not "plans"."floating" or "plans"."seats" is not null);--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_seats_range" CHECK ("plans"."seats" is null or "plans"."seats" between 1 and 10000);--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_lease_minutes_range" CHECK ("plans"."lease_minutes" between 5 and 1440);--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_max_borrow_days_range" CHECK ("plans"."max_borrow_days" between 0 and 365);