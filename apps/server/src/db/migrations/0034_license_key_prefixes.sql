ALTER TABLE "license_keys" ADD COLUMN "key_prefix" text;--> statement-breakpoint
-- Hand-written: the keys already here are pending (their prefix needs the unsealed key, which
-- only the server's backfill has), new ones are not. A constant default fills the existing rows
-- without rewriting the table, and the second statement makes false the default from here on.
ALTER TABLE "license_keys" ADD COLUMN "key_prefix_pending" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "license_keys" ALTER COLUMN "key_prefix_pending" SET DEFAULT false;--> statement-breakpoint
CREATE INDEX "license_keys_application_prefix_idx" ON "license_keys" USING btree ("application_id","key_prefix" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "license_keys_prefix_pending_idx" ON "license_keys" USING btree ("id") WHERE "license_keys"."key_prefix_pending";
