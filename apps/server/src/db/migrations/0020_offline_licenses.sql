ALTER TABLE "applications" ADD COLUMN "max_offline_days" integer DEFAULT 30 NOT NULL;
