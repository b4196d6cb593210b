DROP INDEX "app_user_sessions_live_idx";--> statement-breakpoint
CREATE INDEX "app_user_sessions_open_idx" ON "app_user_sessions" USING btree ("application_id") WHERE "app_user_sessions"."ended_at" is null;--> statement-breakpoint
-- Room on every page for heartbeats to rewrite a session in place (HOT updates): drizzle-kit
-- has no table storage parameters, so this line is hand-written.
ALTER TABLE "app_user_sessions" SET (fillfactor = 70);
