CREATE TABLE "shop_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"public_id" text NOT NULL,
	"provider" text NOT NULL,
	"name" text NOT NULL,
	"test_mode" boolean DEFAULT false NOT NULL,
	"secret_sealed" text,
	"secret_hint" text,
	"url_token_sealed" text,
	"api_key_sealed" text,
	"products" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_customers" (
	"connection_id" uuid NOT NULL,
	"customer_ref" text NOT NULL,
	"email" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_customers_connection_id_customer_ref_pk" PRIMARY KEY("connection_id","customer_ref")
);
--> statement-breakpoint
CREATE TABLE "shop_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"provider_event_id" text NOT NULL,
	"type" text NOT NULL,
	"kind" text NOT NULL,
	"refs" text[] DEFAULT '{}' NOT NULL,
	"order_id" uuid,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"connection_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_order_id" text NOT NULL,
	"product_id" text NOT NULL,
	"refs" text[] DEFAULT '{}' NOT NULL,
	"subscription_ref" text,
	"customer_ref" text,
	"renews_order_id" uuid,
	"buyer_email" text,
	"quantity" integer NOT NULL,
	"amount" bigint,
	"currency" text,
	"test_mode" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"plan_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "extra_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "shop_order_id" uuid;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "buyer_email" text;--> statement-breakpoint
ALTER TABLE "shop_connections" ADD CONSTRAINT "shop_connections_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_customers" ADD CONSTRAINT "shop_customers_connection_id_shop_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."shop_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_events" ADD CONSTRAINT "shop_events_connection_id_shop_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."shop_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_events" ADD CONSTRAINT "shop_events_order_id_shop_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shop_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_connection_id_shop_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."shop_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_renews_order_id_shop_orders_id_fk" FOREIGN KEY ("renews_order_id") REFERENCES "public"."shop_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shop_connections_public_id_idx" ON "shop_connections" USING btree ("public_id");--> statement-breakpoint
CREATE INDEX "shop_connections_application_idx" ON "shop_connections" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_events_once_idx" ON "shop_events" USING btree ("connection_id","provider_event_id");--> statement-breakpoint
CREATE INDEX "shop_events_reversal_refs_idx" ON "shop_events" USING gin ("refs") WHERE "shop_events"."kind" in ('refund', 'chargeback');--> statement-breakpoint
CREATE INDEX "shop_events_order_idx" ON "shop_events" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_once_idx" ON "shop_orders" USING btree ("connection_id","provider_order_id","product_id");--> statement-breakpoint
CREATE INDEX "shop_orders_application_created_idx" ON "shop_orders" USING btree ("application_id","created_at","id");--> statement-breakpoint
CREATE INDEX "shop_orders_refs_idx" ON "shop_orders" USING gin ("refs");--> statement-breakpoint
CREATE INDEX "shop_orders_subscription_idx" ON "shop_orders" USING btree ("connection_id","subscription_ref");--> statement-breakpoint
CREATE INDEX "shop_orders_customer_idx" ON "shop_orders" USING btree ("connection_id","customer_ref");--> statement-breakpoint
CREATE INDEX "shop_orders_buyer_email_trgm_idx" ON "shop_orders" USING gin ("buyer_email" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_shop_order_id_shop_orders_id_fk" FOREIGN KEY ("shop_order_id") REFERENCES "public"."shop_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "license_keys_shop_order_idx" ON "license_keys" USING btree ("shop_order_id");