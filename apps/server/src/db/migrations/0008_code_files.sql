CREATE TABLE "code_file_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"version" integer NOT NULL,
	"content" text NOT NULL,
	"origin" text NOT NULL,
	"restored_from" integer,
	"saved_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_files" (
	"owner_account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content" text NOT NULL,
	"version" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "code_files_owner_account_id_name_pk" PRIMARY KEY("owner_account_id","name")
);
--> statement-breakpoint
ALTER TABLE "code_file_versions" ADD CONSTRAINT "code_file_versions_owner_account_id_owner_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."owner_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_files" ADD CONSTRAINT "code_files_owner_account_id_owner_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."owner_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "code_file_versions_file_version_idx" ON "code_file_versions" USING btree ("owner_account_id","name","version");