import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./account.ts";

/**
 * A signed-in user's download history (issue 9 §3): one row per download link, written by the
 * server when the link streams (status "done" when the file was sent whole, "failed" otherwise).
 */
export const downloadHistory = pgTable(
  "download_history",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    format: text("format").notNull(),
    /** 64-bit: a 4K or 8K file passes 2 GiB (read back as a JS number, exact below 2^53) */
    bytes: bigint("bytes", { mode: "number" }),
    status: text("status").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("download_history_user_created_idx").on(t.userId, t.createdAt)],
);
