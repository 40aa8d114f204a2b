import { date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./account.ts";

/**
 * An Ultimate user's API key (issue 31 §1): `Authorization: Bearer <key>` calls /api/v1 as its
 * owner. Only the SHA-256 of the key is kept (the key is shown once, at creation), with the
 * first characters for the owner to tell keys apart. A revoked key keeps its row (its usage
 * stays countable) and is refused from then on.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** the key's first characters ("vf_3kD9x…"), shown in the list */
    prefix: text("prefix").notNull(),
    /** hex SHA-256 of the whole key: what a request's key is looked up by */
    hash: text("hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.hash), index("api_keys_user_idx").on(t.userId)],
);

/** Requests made with a key, per day (UTC): the dashboard's "requests this month". */
export const apiKeyUsage = pgTable(
  "api_key_usage",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    requests: integer("requests").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);
