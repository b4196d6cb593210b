ALTER TABLE "plans" ADD COLUMN "updates_for_days" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "updates_from" text DEFAULT 'redemption' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "updates_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "updates_pending_days" integer;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "extra_updates_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_updates_for_days_range" CHECK ("plans"."updates_for_days" IS NULL OR "plans"."updates_for_days" BETWEEN 1 AND 36500);--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_updates_from_kind" CHECK ("plans"."updates_from" IN ('redemption', 'activation'));