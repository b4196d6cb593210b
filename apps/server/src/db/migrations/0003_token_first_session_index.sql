DROP INDEX "app_user_sessions_token_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "app_user_sessions_token_idx" ON "app_user_sessions" USING btree ("token_hash","application_id");