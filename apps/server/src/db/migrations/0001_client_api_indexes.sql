DROP INDEX "blacklist_entries_owner_idx";--> statement-breakpoint
CREATE INDEX "app_user_sessions_app_user_idx" ON "app_user_sessions" USING btree ("app_user_id");--> statement-breakpoint
CREATE INDEX "blacklist_entries_match_idx" ON "blacklist_entries" USING btree ("owner_account_id","type",lower("value"));--> statement-breakpoint
CREATE INDEX "activity_logs_app_user_idx" ON "activity_logs" USING btree ("app_user_id");