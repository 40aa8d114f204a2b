import { lt, sql } from "drizzle-orm";
import { pruneThrottle } from "#app/lib/prune-throttle.ts";
import type { Database } from "#db/client.ts";
import { downloadHistory } from "#db/schema/index.ts";
import type { DownloadFinished } from "#engine/index.ts";
import { historyCutoff } from "./retention.ts";

/**
 * The engine's onDownloadFinished hook, for signed-in users only: one row per signed link (the
 * download id), written when a stream of it ends. "done" once any stream delivered the file to
 * its last byte; a later failed stream of the same link (a replayed range) does not undo that.
 * Range resumes update the same row, so a download that failed and was resumed to the end reads
 * "done".
 */
export async function recordDownload(db: Database, event: DownloadFinished, now: Date = new Date()): Promise<void> {
  const userId = event.caller.userId;
  // a job's own file or a canary check (openDownload) is no download of the visitor's
  if (!userId || event.history === false) return;
  const status = event.complete ? "done" : "failed";
  await db
    .insert(downloadHistory)
    .values({ id: event.id, userId, title: event.title.slice(0, 500), format: event.format, bytes: safeBytes(event.bytes), status, createdAt: now, finishedAt: now })
    .onConflictDoUpdate({
      target: downloadHistory.id,
      set: {
        status: sql`case when ${downloadHistory.status} = 'done' then 'done' else excluded.status end`,
        bytes: sql`coalesce(excluded.bytes, ${downloadHistory.bytes})`,
        finishedAt: now,
      },
      // a download id belongs to the account that created the link
      setWhere: sql`${downloadHistory.userId} = ${userId}`,
    });
  await pruneHistory(db, now);
}

const pruneDue = pruneThrottle();

/** Deletes every user's history older than the retention period (at most once an hour per process). */
export async function pruneHistory(db: Database, now: Date = new Date(), opts: { force?: boolean } = {}): Promise<void> {
  if (!pruneDue(db, now, opts.force)) return;
  await db.delete(downloadHistory).where(lt(downloadHistory.createdAt, historyCutoff(now)));
}

/** A size that is not a whole, non-negative, exactly representable number is left unknown rather than wrong. */
function safeBytes(bytes: number | null): number | null {
  return bytes !== null && Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : null;
}
