ALTER TABLE "download_jobs" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "download_jobs" ADD COLUMN "name" text;