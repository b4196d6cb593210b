CREATE TABLE "idempotency_keys" (
	"api_token_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_digest" text NOT NULL,
	"status" integer,
	"content_type" text,
	"body" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_api_token_id_key_pk" PRIMARY KEY("api_token_id","key")
);
--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "actor_token_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "actor_token_name" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "actor_token_prefix" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "ip_address" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_api_token_id_api_tokens_id_fk" FOREIGN KEY ("api_token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");