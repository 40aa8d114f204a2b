import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./account.ts";

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
    /** the plan of the signed-in sender (null: no account) */
    plan: text("plan"),
    /** sent by a plan with priority support (Pro, Ultimate): answered first */
    priority: boolean("priority").notNull().default(false),
    /** when an operator marked it handled in /admin (null: open) */
    handledAt: timestamp("handled_at", { withTimezone: true }),
    /** who did (the account may be gone since: then null with handled_at kept) */
    handledBy: text("handled_by").references(() => users.id, { onDelete: "set null" }),
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

/**
 * The blog's "Stay Updated" box. One row per address; repeats are idempotent. Double opt-in
 * (decision 044): a row is a subscriber only once `confirmed_at` is set from the mailed link; an
 * unconfirmed row is deleted once its last confirmation mail is older than the confirm window.
 */
export const newsletterSubscribers = pgTable("newsletter_subscribers", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  source: text("source").notNull().default("blog"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  /** when the owner of the address opened the confirmation link; null: not a subscriber yet */
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  /** when the last confirmation mail went out (at most one an hour per address) */
  confirmSentAt: timestamp("confirm_sent_at", { withTimezone: true }),
});
