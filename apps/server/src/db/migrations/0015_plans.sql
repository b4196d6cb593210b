CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"name" text NOT NULL,
	"duration_days" integer,
	"entitlements" text[] DEFAULT '{}' NOT NULL,
	"description" text,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_duration_days_range" CHECK ("plans"."duration_days" IS NULL OR "plans"."duration_days" BETWEEN 1 AND 36500)
);
--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plans_application_name_idx" ON "plans" USING btree ("application_id",lower("name"));