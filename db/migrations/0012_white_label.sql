CREATE TABLE "white_labels" (
	"user_id" text PRIMARY KEY NOT NULL,
	"sender_name" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "download_jobs" ADD COLUMN "white_label" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "white_labels" ADD CONSTRAINT "white_labels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;