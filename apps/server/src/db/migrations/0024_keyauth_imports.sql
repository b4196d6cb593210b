CREATE TABLE "import_rows" (
	"import_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"data" text NOT NULL,
	"is_done" boolean DEFAULT false NOT NULL,
	CONSTRAINT "import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_account_id" uuid NOT NULL,
	"application_id" integer NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"format" text NOT NULL,
	"status" text DEFAULT 'previewed' NOT NULL,
	"total_rows" integer NOT NULL,
	"readable_rows" integer NOT NULL,
	"conflict_rows" integer NOT NULL,
	"unreadable_rows" integer NOT NULL,
	"done_rows" integer DEFAULT 0 NOT NULL,
	"created_rows" integer DEFAULT 0 NOT NULL,
	"skipped_rows" integer DEFAULT 0 NOT NULL,
	"conflicts" jsonb NOT NULL,
	"unreadable" jsonb NOT NULL,
	"levels" text[] DEFAULT '{}' NOT NULL,
	"level_plans" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imports_status" CHECK ("imports"."status" IN ('previewed', 'running', 'done', 'failed')),
	CONSTRAINT "imports_kind" CHECK ("imports"."kind" IN ('users', 'keys'))
);
--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_owner_account_id_owner_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."owner_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_application_created_idx" ON "imports" USING btree ("application_id","created_at");