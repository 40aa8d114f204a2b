import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What each platform client did, counted per hour (issue 32 §5): resolves, downloads and canary
 * checks by platform, client (YouTube's InnerTube clients, `ytdlp`), egress (`direct`, `proxy-1`…),
 * where it was seen and its outcome (`ok` or the failure type). Rows older than the window
 * (app/modules/platform-health/health-counts.server.ts) are deleted as new ones come: the table
 * stays a few thousand rows at most. The operators' table and the client order read it.
 */
export const platformHealthCounts = pgTable(
  "platform_health_counts",
  {
    /** the start of the hour (UTC) the outcomes fell in */
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    platform: text("platform").notNull(),
    client: text("client").notNull(),
    egress: text("egress").notNull(),
    /** resolve | download | canary */
    source: text("source").notNull(),
    /** "ok", or the failure type: the engine's error code or the ladder's verdict (client.sabr_only…) */
    outcome: text("outcome").notNull(),
    count: integer("count").notNull(),
    /** the latest of them */
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.platform, t.client, t.egress, t.source, t.outcome] }), index("platform_health_counts_hour_idx").on(t.hour)],
);
