CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "max_sessions_per_user" integer;--> statement-breakpoint
ALTER TABLE "app_users" ADD COLUMN "last_login_ip" text;--> statement-breakpoint
ALTER TABLE "app_users" ADD COLUMN "last_login_hwid" text;--> statement-breakpoint
ALTER TABLE "app_users" ADD COLUMN "last_login_token_hash" text;--> statement-breakpoint
ALTER TABLE "app_user_sessions" ADD COLUMN "end_reason" text;--> statement-breakpoint
CREATE INDEX "app_user_sessions_ended_idx" ON "app_user_sessions" USING btree ("ended_at") WHERE "app_user_sessions"."ended_at" is not null;