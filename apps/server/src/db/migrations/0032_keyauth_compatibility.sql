CREATE TABLE "keyauth_sessions" (
	"id_digest" text PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"enckey" text,
	"app_user_id" uuid,
	"session_token_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "keyauth_compatibility" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "keyauth_owner_id" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "keyauth_name" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "keyauth_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "keyauth_session_hours" integer DEFAULT 6 NOT NULL;--> statement-breakpoint
ALTER TABLE "keyauth_sessions" ADD CONSTRAINT "keyauth_sessions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keyauth_sessions" ADD CONSTRAINT "keyauth_sessions_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "keyauth_sessions_expiry_idx" ON "keyauth_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "applications_keyauth_idx" ON "applications" USING btree ("keyauth_owner_id","keyauth_name");