CREATE TABLE "mail_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"app_user_id" uuid,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets_sealed" text,
	"subject" text,
	"content_sealed" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mail_templates" (
	"application_id" integer NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_templates_application_id_kind_pk" PRIMARY KEY("application_id","kind")
);
--> statement-breakpoint
CREATE TABLE "end_user_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"app_user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_digest" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "end_user_tokens_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "mail_sender_name" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "mail_reply_to" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_templates" ADD CONSTRAINT "mail_templates_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "end_user_tokens" ADD CONSTRAINT "end_user_tokens_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "end_user_tokens" ADD CONSTRAINT "end_user_tokens_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_messages_due_idx" ON "mail_messages" USING btree ("next_attempt_at") WHERE "mail_messages"."status" in ('queued', 'retrying', 'sending');--> statement-breakpoint
CREATE INDEX "mail_messages_application_idx" ON "mail_messages" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_messages_finished_idx" ON "mail_messages" USING btree ("created_at") WHERE "mail_messages"."status" in ('sent', 'failed');--> statement-breakpoint
CREATE INDEX "end_user_tokens_app_user_idx" ON "end_user_tokens" USING btree ("app_user_id");--> statement-breakpoint
CREATE INDEX "end_user_tokens_expires_idx" ON "end_user_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "app_users_application_email_idx" ON "app_users" USING btree ("application_id",lower("email"));