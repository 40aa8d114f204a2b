import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Messages from the /contact-us form. */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull().default(""),
    message: text("message").notNull(),
    ipHash: text("ip_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("contact_messages_created_at_idx").on(t.createdAt)],
);

/** "Request Platform Support" submissions from /supported-sites. */
export const platformRequests = pgTable("platform_requests", {
  id: uuid("id").primaryKey().defaultRandom(),
  platformName: text("platform_name").notNull(),
  email: text("email"),
  details: text("details").notNull().default(""),
  ipHash: text("ip_hash"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The blog's "Stay Updated" box. One row per address; repeats are idempotent. */
export const newsletterSubscribers = pgTable("newsletter_subscribers", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  source: text("source").notNull().default("blog"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
});
