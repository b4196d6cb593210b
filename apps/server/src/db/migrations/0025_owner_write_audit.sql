ALTER TABLE "audit_entries" ADD COLUMN "application_id" integer;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "application_name" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "target_kind" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "target_id" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "target_label" text;--> statement-breakpoint
CREATE INDEX "audit_entries_actor_created_idx" ON "audit_entries" USING btree ("actor_account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);