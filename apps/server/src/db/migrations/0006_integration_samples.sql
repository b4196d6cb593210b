CREATE TABLE "integration_samples" (
	"owner_account_id" uuid NOT NULL,
	"application_id" integer NOT NULL,
	"language" text NOT NULL,
	"code" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_samples_owner_account_id_application_id_language_pk" PRIMARY KEY("owner_account_id","application_id","language")
);
--> statement-breakpoint
ALTER TABLE "integration_samples" ADD CONSTRAINT "integration_samples_owner_account_id_owner_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."owner_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_samples" ADD CONSTRAINT "integration_samples_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;