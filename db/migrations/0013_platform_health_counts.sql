CREATE TABLE "platform_health_counts" (
	"hour" timestamp with time zone NOT NULL,
	"platform" text NOT NULL,
	"client" text NOT NULL,
	"egress" text NOT NULL,
	"source" text NOT NULL,
	"outcome" text NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "platform_health_counts_hour_platform_client_egress_source_outcome_pk" PRIMARY KEY("hour","platform","client","egress","source","outcome")
);
--> statement-breakpoint
CREATE INDEX "platform_health_counts_hour_idx" ON "platform_health_counts" USING btree ("hour");