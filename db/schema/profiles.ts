import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./account.ts";

/**
 * A custom download profile (issue 31 §2, Ultimate): a saved format, subtitle language and
 * file-name template, chosen with one click or sent as `profile` to the API.
 */
export const downloadProfiles = pgTable(
  "download_profiles",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    format: text("format").notNull(),
    language: text("language"),
    filenameTemplate: text("filename_template"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("download_profiles_user_idx").on(t.userId)],
);
