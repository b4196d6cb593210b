CREATE TABLE "server_secret_check" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"digest" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "server_secret_check_one_row" CHECK ("server_secret_check"."id" = 1)
);
