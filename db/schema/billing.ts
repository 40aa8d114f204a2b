import { boolean, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./account.ts";

/**
 * Plans and payments (issue 9 §2). Stripe is the source of truth; these rows are our copy of
 * what Stripe confirmed, written only by the webhook handler and by a verified checkout session
 * (both re-read the subscription from Stripe's API, never from what a browser sent).
 */

/** One Stripe customer per user, created on the user's first checkout. */
export const billingCustomers = pgTable("billing_customers", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  stripeCustomerId: text("stripe_customer_id").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per Stripe subscription. `plan` is our plan id ("basic" | "pro" | "ultimate"),
 * mapped from the subscription's price on the server; `status` is Stripe's own status
 * ("trialing", "active", "past_due", "canceled", "unpaid", "incomplete", ...).
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    stripeCustomerId: text("stripe_customer_id").notNull(),
    priceId: text("price_id").notNull(),
    plan: text("plan").notNull(),
    status: text("status").notNull(),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true }),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    trialEnd: timestamp("trial_end", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("subscriptions_user_id_idx").on(t.userId)],
);

/** Webhook events already processed: each Stripe event id is acted on once. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
});
