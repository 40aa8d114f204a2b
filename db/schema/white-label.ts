import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./account.ts";

/**
 * An Ultimate user's white label (issue 31 §1): the name mails about their API calls are sent
 * under, instead of the site's. One row per user, kept while they have an account.
 */
export const whiteLabels = pgTable("white_labels", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  senderName: text("sender_name").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
