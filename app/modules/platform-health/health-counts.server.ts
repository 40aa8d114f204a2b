import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { platformHealthCounts } from "#db/schema/index.ts";
import type { HealthSource } from "./health-rule.ts";

/**
 * Counts per platform, client, egress and failure type (issue 32 §5), from real resolves and
 * downloads and from the canary, kept in the database by the hour over the last
 * COUNTS_WINDOW_HOURS (older hours are deleted as new outcomes come). The operators' table
 * (/admin) and the client order (client-order.server.ts) read them; the status endpoint keeps its
 * own short record (health-store.server.ts).
 *
 * Outcomes are added in memory and written together every FLUSH_MS (one upsert per distinct row),
 * so a busy server writes a few rows every few seconds, not one per download.
 */

export const COUNTS_WINDOW_HOURS = 24;
const HOUR_MS = 3600_000;
export const FLUSH_MS = 5000;
/** the old hours go at most this often */
const PRUNE_EVERY_MS = 10 * 60_000;
/** the outcome of a success */
export const OK_OUTCOME = "ok";

/** One outcome of one client: a resolve's ladder rung, a download's file, a canary check. */
export interface ClientOutcome {
  platform: string;
  /** YouTube's InnerTube client (upper case), `ytdlp`, or `unknown` */
  client: string;
  /** `direct`, or the egress id the answer named (`proxy-1`, `ipv6`…) */
  egress: string;
  source: HealthSource;
  ok: boolean;
  /** the failure type (an engine error code or the ladder's `client.*` verdict); null for a success */
  code: string | null;
  /** epoch ms */
  at: number;
}

/** One row of the operators' table: a platform's client on one egress, over the window. */
export interface ClientHealthRow {
  platform: string;
  client: string;
  egress: string;
  successes: number;
  /** failures by type, most first */
  failures: Array<{ type: string; count: number }>;
  /** ISO times, null when none in the window */
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
}

/** A client's latest canary outcomes on a platform, over every egress (epoch ms, null when none in the window). */
export interface CanaryStanding {
  platform: string;
  client: string;
  lastOkAt: number | null;
  lastFailureAt: number | null;
}

export interface HealthCounts {
  /** adds an outcome (written with the next flush) */
  add(outcome: ClientOutcome): void;
  /** writes what was added; resolves once it is in the database (a failure is logged, the outcomes dropped) */
  flush(): Promise<void>;
  /** the operators' table over the window ending `now`: platform, client, egress, worst first */
  table(now?: number): Promise<ClientHealthRow[]>;
  /** each client's latest canary success and failure over the window */
  canaryStandings(now?: number): Promise<CanaryStanding[]>;
  /** stops the timer after a last flush */
  close(): Promise<void>;
}

const hourOf = (at: number) => Math.floor(at / HOUR_MS) * HOUR_MS;
const cutoffOf = (now: number) => new Date(hourOf(now) - (COUNTS_WINDOW_HOURS - 1) * HOUR_MS);

interface Pending {
  hour: number;
  platform: string;
  client: string;
  egress: string;
  source: HealthSource;
  outcome: string;
  count: number;
  lastAt: number;
}

export function createHealthCounts(opts: { db: Database; logger: Pick<Logger, "warn">; now?: () => number; flushMs?: number }): HealthCounts {
  const { db, logger } = opts;
  const now = opts.now ?? Date.now;
  let pending = new Map<string, Pending>();
  let writing: Promise<void> = Promise.resolve();
  let lastPrune = 0;
  const timer = setInterval(() => void flush(), opts.flushMs ?? FLUSH_MS);
  timer.unref();

  async function write(rows: Pending[]): Promise<void> {
    if (rows.length > 0) {
      await db
        .insert(platformHealthCounts)
        .values(rows.map((r) => ({ ...r, hour: new Date(r.hour), lastAt: new Date(r.lastAt) })))
        .onConflictDoUpdate({
          target: [platformHealthCounts.hour, platformHealthCounts.platform, platformHealthCounts.client, platformHealthCounts.egress, platformHealthCounts.source, platformHealthCounts.outcome],
          set: {
            count: sql`${platformHealthCounts.count} + excluded.count`,
            lastAt: sql`greatest(${platformHealthCounts.lastAt}, excluded.last_at)`,
          },
        });
    }
    const at = now();
    if (at - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = at;
      await db.delete(platformHealthCounts).where(lt(platformHealthCounts.hour, cutoffOf(at)));
    }
  }

  function flush(): Promise<void> {
    const rows = [...pending.values()];
    pending = new Map();
    // one write at a time, in order: a flush resolves once everything added before it is written
    writing = writing.then(() => write(rows)).catch((err: unknown) => logger.warn({ err, rows: rows.length }, "could not write the platform health counts"));
    return writing;
  }

  return {
    add(o) {
      const hour = hourOf(o.at);
      const outcome = o.ok ? OK_OUTCOME : (o.code ?? "internal");
      const key = [hour, o.platform, o.client, o.egress, o.source, outcome].join("\u0000");
      const row = pending.get(key);
      if (row) {
        row.count++;
        row.lastAt = Math.max(row.lastAt, o.at);
      } else {
        pending.set(key, { hour, platform: o.platform, client: o.client, egress: o.egress, source: o.source, outcome, count: 1, lastAt: o.at });
      }
    },

    flush,

    table: (at = now()) => readHealthTable(db, at),
    canaryStandings: (at = now()) => readCanaryStandings(db, at),

    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** The operators' table over the window ending `at`: one row per platform, client and egress, most failures first. */
export async function readHealthTable(db: Database, at: number = Date.now()): Promise<ClientHealthRow[]> {
  const rows = await db
    .select({
      platform: platformHealthCounts.platform,
      client: platformHealthCounts.client,
      egress: platformHealthCounts.egress,
      outcome: platformHealthCounts.outcome,
      count: sql<number>`sum(${platformHealthCounts.count})::int`,
      lastAt: sql<Date | string>`max(${platformHealthCounts.lastAt})`,
    })
    .from(platformHealthCounts)
    .where(gte(platformHealthCounts.hour, cutoffOf(at)))
    .groupBy(platformHealthCounts.platform, platformHealthCounts.client, platformHealthCounts.egress, platformHealthCounts.outcome);
  const byRow = new Map<string, ClientHealthRow>();
  for (const r of rows) {
    const key = `${r.platform}\u0000${r.client}\u0000${r.egress}`;
    const row = byRow.get(key) ?? { platform: r.platform, client: r.client, egress: r.egress, successes: 0, failures: [], lastSuccessAt: null, lastFailureAt: null };
    const last = new Date(r.lastAt).toISOString();
    if (r.outcome === OK_OUTCOME) {
      row.successes += Number(r.count);
      row.lastSuccessAt = later(row.lastSuccessAt, last);
    } else {
      row.failures.push({ type: r.outcome, count: Number(r.count) });
      row.lastFailureAt = later(row.lastFailureAt, last);
    }
    byRow.set(key, row);
  }
  const failed = (r: ClientHealthRow) => r.failures.reduce((n, f) => n + f.count, 0);
  for (const row of byRow.values()) row.failures.sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
  // worst first (most failures), then by name: the operator looks at the top
  return [...byRow.values()].sort((a, b) => failed(b) - failed(a) || a.platform.localeCompare(b.platform) || a.client.localeCompare(b.client) || a.egress.localeCompare(b.egress));
}

/** Each client's latest canary success and failure over the window ending `at`. */
export async function readCanaryStandings(db: Database, at: number = Date.now()): Promise<CanaryStanding[]> {
  const rows = await db
    .select({
      platform: platformHealthCounts.platform,
      client: platformHealthCounts.client,
      lastOkAt: sql<Date | string | null>`max(${platformHealthCounts.lastAt}) filter (where ${platformHealthCounts.outcome} = ${OK_OUTCOME})`,
      lastFailureAt: sql<Date | string | null>`max(${platformHealthCounts.lastAt}) filter (where ${platformHealthCounts.outcome} <> ${OK_OUTCOME})`,
    })
    .from(platformHealthCounts)
    .where(and(gte(platformHealthCounts.hour, cutoffOf(at)), eq(platformHealthCounts.source, "canary")))
    .groupBy(platformHealthCounts.platform, platformHealthCounts.client);
  const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());
  return rows.map((r) => ({ platform: r.platform, client: r.client, lastOkAt: ms(r.lastOkAt), lastFailureAt: ms(r.lastFailureAt) }));
}

function later(a: string | null, b: string): string {
  return a === null || b > a ? b : a;
}
