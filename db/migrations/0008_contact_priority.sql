ALTER TABLE "contact_messages" ADD COLUMN "plan" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "priority" boolean DEFAULT false NOT NULL;