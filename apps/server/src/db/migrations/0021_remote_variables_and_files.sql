CREATE TABLE "app_user_variables" (
	"app_user_id" uuid NOT NULL,
	"application_id" integer NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"read_only" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_user_variables_app_user_id_name_pk" PRIMARY KEY("app_user_id","name")
);
--> statement-breakpoint
CREATE TABLE "app_variables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"requires_session" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_file_chunks" (
	"file_id" uuid NOT NULL,
	"chunk_index" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "app_file_chunks_file_id_chunk_index_pk" PRIMARY KEY("file_id","chunk_index")
);
--> statement-breakpoint
CREATE TABLE "app_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"platform" text,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"sha256" text,
	"chunk_size_bytes" integer NOT NULL,
	"requires_session" boolean DEFAULT true NOT NULL,
	"is_complete" boolean DEFAULT false NOT NULL,
	"download_count" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "current_release_file_id" uuid;--> statement-breakpoint
ALTER TABLE "app_user_variables" ADD CONSTRAINT "app_user_variables_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_user_variables" ADD CONSTRAINT "app_user_variables_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_variables" ADD CONSTRAINT "app_variables_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_file_chunks" ADD CONSTRAINT "app_file_chunks_file_id_app_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."app_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_files" ADD CONSTRAINT "app_files_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_variables_app_name_idx" ON "app_variables" USING btree ("application_id","name");--> statement-breakpoint
CREATE INDEX "app_files_app_idx" ON "app_files" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "app_files_incomplete_idx" ON "app_files" USING btree ("created_at") WHERE not "app_files"."is_complete";--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_current_release_file_id_app_files_id_fk" FOREIGN KEY ("current_release_file_id") REFERENCES "public"."app_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Installers and updates are mostly compressed already: store chunks out of line without
-- PostgreSQL trying (and failing) to compress each one first.
ALTER TABLE "app_file_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
