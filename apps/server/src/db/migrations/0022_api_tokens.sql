CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_digest" text NOT NULL,
	"scopes" text[] NOT NULL,
	"application_ids" integer[],
	"allowed_ips" text[],
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text,
	"read_count" bigint DEFAULT 0 NOT NULL,
	"write_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "api_tokens_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_owner_account_id_owner_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."owner_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_owner_idx" ON "api_tokens" USING btree ("owner_account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- manage_api_tokens is on by default for admins (owners hold every permission by role).
UPDATE "owner_accounts" SET "permissions" = array_append("permissions", 'manage_api_tokens')
WHERE "role" = 'admin' AND NOT ('manage_api_tokens' = ANY("permissions"));
