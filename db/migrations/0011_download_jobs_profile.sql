ALTER TABLE "download_jobs" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "download_jobs" ADD COLUMN "filename_template" text;