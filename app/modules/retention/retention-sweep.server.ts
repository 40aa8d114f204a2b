import { lt } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { contactMessages, platformRequests } from "#db/schema/index.ts";
import { pruneHistory } from "#app/modules/history/record-download.server.ts";
import { pruneJobRecords } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { pruneUnconfirmed } from "#app/modules/newsletter/subscribe-to-newsletter.server.ts";
import { CONTACT_MESSAGE_RETENTION_MONTHS, monthsBefore, PLATFORM_REQUEST_RETENTION_MONTHS } from "./periods.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes what the privacy policy says is kept no longer: contact messages, platform requests
 * and download history past their periods, and newsletter addresses nobody confirmed. Each
 * table is swept on its own, so one failure does not keep the others' old rows.
 */
export async function sweepExpiredRows(db: Database, logger: Logger, now: Date = new Date()): Promise<void> {
  const sweeps: [string, () => Promise<unknown>][] = [
    ["contact messages", () => db.delete(contactMessages).where(lt(contactMessages.createdAt, monthsBefore(now, CONTACT_MESSAGE_RETENTION_MONTHS)))],
    ["platform requests", () => db.delete(platformRequests).where(lt(platformRequests.createdAt, monthsBefore(now, PLATFORM_REQUEST_RETENTION_MONTHS)))],
    ["download history", () => pruneHistory(db, now, { force: true })],
    ["unconfirmed newsletter addresses", () => pruneUnconfirmed(db, now, { force: true })],
    ["scheduled download records", () => pruneJobRecords(db, now)],
  ];
  for (const [what, sweep] of sweeps) {
    try {
      await sweep();
    } catch (err) {
      logger.error({ err }, `retention: deleting expired ${what} failed; the next sweep tries again`);
    }
  }
}

/** Sweeps now (at start-up), then once a day; the returned function stops it. */
export function startRetentionSweep(deps: { db: Database; logger: Logger; intervalMs?: number; now?: () => Date }): () => void {
  const run = () => void sweepExpiredRows(deps.db, deps.logger, deps.now?.());
  run();
  const timer = setInterval(run, deps.intervalMs ?? DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
