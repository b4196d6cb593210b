CREATE TABLE "meter_increments" (
	"app_user_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"meter_name" text NOT NULL,
	"amount" bigint NOT NULL,
	"used_after" bigint NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "meter_increments_app_user_id_idempotency_key_pk" PRIMARY KEY("app_user_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "meter_usage" (
	"app_user_id" uuid NOT NULL,
	"meter_name" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"used" bigint NOT NULL,
	"exhausted_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "meter_usage_app_user_id_meter_name_pk" PRIMARY KEY("app_user_id","meter_name"),
	CONSTRAINT "meter_usage_used_positive" CHECK ("meter_usage"."used" >= 0)
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "meters" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "meter_increments" ADD CONSTRAINT "meter_increments_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_usage" ADD CONSTRAINT "meter_usage_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meter_increments_created_idx" ON "meter_increments" USING btree ("created_at");