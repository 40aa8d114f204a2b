import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./account.ts";

/**
 * What the operators did in /admin (issue 31 §5): one row per action, written in the same
 * transaction as the change itself. The admin's email is kept with the id, so the log still says
 * who it was after their account is gone.
 */
export const adminActions = pgTable(
  "admin_actions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    adminUserId: text("admin_user_id").references(() => users.id, { onDelete: "set null" }),
    adminEmail: text("admin_email").notNull(),
    /** e.g. "comment.hide", "contact.handled" */
    action: text("action").notNull(),
    /** what it acted on: a comment or message id, an article slug */
    target: text("target").notNull(),
    /** a short human summary (a comment's author, a message's subject) */
    detail: text("detail").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("admin_actions_created_at_idx").on(t.createdAt)],
);
