import { randomUUID } from "node:crypto";
import { and, count, desc, eq, gte, isNotNull, isNull, lt } from "drizzle-orm";
import { parseLink, parsePlaylistLink } from "#common/links.ts";
import { holds, limitOf, mayDownload, type PlanId } from "#common/plans.ts";
import type { Database } from "#db/client.ts";
import { downloadJobs, type JobItem, type JobKind, type JobStatus } from "#db/schema/jobs.ts";
import { FORMAT_IDS } from "#engine/formats.ts";
import type { MediaOptions } from "#engine/index.ts";
import { planRequired, premiumRefusal } from "#engine/refusals.ts";
import type { Caller } from "#engine/types.ts";
import { JOB_ERRORS, JobError } from "./job-messages.ts";
import { jobRecordCutoff } from "./job-retention.ts";

/** The queue a scheduled download runs on (jobs/scheduled-download.ts works it). */
export const SCHEDULED_DOWNLOAD_QUEUE = "scheduled-download";
/** how far ahead a download may be scheduled */
export const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 3600 * 1000;
/** a time a moment in the past (a slow form, a clock a little behind) still means "now" */
const PAST_GRACE_MS = 5 * 60 * 1000;
export { JOB_FILE_TTL_MS } from "./job-retention.ts";

/** What the job queue must do for this module (jobs/runner.ts provides it). */
export interface JobQueue {
  /** `id`: the queue job's id, chosen by the caller (the row names it before the queue can run it) */
  send(queue: string, data: { jobId: string }, opts: { startAfter: Date; id: string }): Promise<string>;
  cancel(queue: string, id: string): Promise<void>;
}

export interface JobOwner {
  userId: string;
  plan: PlanId;
}

/** The API's and the dashboard's view of a job (DESIGN §5). */
export interface JobView {
  id: string;
  /** scheduled: one file; bulk: a ZIP of `items`; playlist: a ZIP of the playlist's videos */
  kind: JobKind;
  /** the archive's name a bulk job was given, or its playlist's title once it ran */
  name: string | null;
  status: JobStatus;
  url: string;
  format: string;
  runAt: string;
  createdAt: string;
  progress: { bytes: number; total: number | null; percent: number | null };
  items: JobItem[];
  filename: string | null;
  bytes: number | null;
  /** set by the caller: the owner's signed file link, while the file is kept */
  downloadUrl: string | null;
  expiresAt: string | null;
  error: string | null;
}

type JobRow = typeof downloadJobs.$inferSelect;

export function jobView(row: JobRow, now: Date, downloadUrl: string | null = null): JobView {
  // the queue takes a due job within seconds; until it does, the job is waiting its turn
  const status: JobStatus = row.status === "scheduled" && row.runAt.getTime() <= now.getTime() ? "queued" : row.status;
  const total = row.bytesTotal ?? row.fileBytes;
  const kept = row.status === "done" && row.fileKey !== null && row.expiresAt !== null && row.expiresAt.getTime() > now.getTime();
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    status,
    url: row.kind === "playlist" ? (row.source ?? "") : (row.items[0]?.url ?? ""),
    format: row.format,
    runAt: row.runAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    progress: {
      bytes: row.bytesDone,
      total: total ?? null,
      percent: row.status === "done" ? 100 : total ? Math.min(99, Math.floor((row.bytesDone / total) * 100)) : null,
    },
    items: row.items,
    filename: row.filename,
    bytes: row.fileBytes,
    downloadUrl: kept ? downloadUrl : null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    error: row.error,
  };
}

function checkRunAt(runAt: Date, now: Date): void {
  const t = runAt.getTime();
  if (!Number.isFinite(t) || t < now.getTime() - PAST_GRACE_MS || t > now.getTime() + MAX_SCHEDULE_AHEAD_MS) throw new JobError("job.invalid_run_at");
}

/** the engine's view of an owner, for the engine's refusals (they name the plans that have a right) */
export function callerOfOwner(owner: JobOwner): Caller {
  return owner.plan === "free" ? { kind: "free", userId: owner.userId } : { kind: "premium", plan: owner.plan, userId: owner.userId };
}

/** the right a job of this kind needs: one file is a scheduled download, a ZIP a bulk download */
function checkRight(owner: JobOwner, kind: JobKind): void {
  const right = kind === "scheduled" ? "scheduledDownloads" : "bulkDownloads";
  if (!holds(owner.plan, right)) throw planRequired(callerOfOwner(owner), right);
}

/**
 * A link in canonical form, checked as the engine will check it when the job runs (a platform's
 * link of the wrong shape is refused now, not at 3 a.m.). `position` names the line of a bulk job.
 */
function checkLink(url: string, position?: number): string {
  if (position !== undefined && wholePlaylist(url)) throw new JobError("job.invalid_link", `Link ${position}: A playlist link goes alone: paste it by itself to download its videos.`);
  const parsed = parseLink(url.trim());
  if (!parsed.ok) throw new JobError("job.invalid_link", position === undefined ? parsed.message : `Link ${position}: ${parsed.message}`);
  return parsed.url;
}

/** What a job is asked to make: one link, several links, or a playlist link. */
/** `language` and `filenameTemplate`: a download profile's (issue 31 §2), for the file or every file of a ZIP */
/** `whiteLabel`: asked with the API key of a plan that has the white label (its ZIP name and mail carry no site name) */
export type JobInput = ({ url: string; urls?: undefined } | { urls: string[]; url?: undefined }) & {
  format: string;
  runAt?: Date;
  name?: string;
  language?: string;
  filenameTemplate?: string;
  whiteLabel?: boolean;
  /** the media options of the file or every file of a ZIP (tags, clip…); absent: the defaults */
  options?: MediaOptions;
};

/** a link that names a whole playlist (a watch link inside one stays a download of its video) */
function wholePlaylist(url: string): string | null {
  const list = parsePlaylistLink(url.trim());
  return list && !(list.kind === "youtube" && list.videoId) ? list.url : null;
}

/** the one link a job names as a whole: `url`, or a list of one playlist link */
function singleLink(input: JobInput): string | null {
  if (input.urls === undefined) return input.url;
  return input.urls.length === 1 && wholePlaylist(input.urls[0]!) ? input.urls[0]! : null;
}

function kindOf(input: JobInput): JobKind {
  const single = singleLink(input);
  if (single === null) return "bulk";
  return wholePlaylist(single) ? "playlist" : "scheduled";
}

/** the job's items from what was asked (the right is checked already); a playlist is listed when the job runs */
function itemsOf(owner: JobOwner, input: JobInput, kind: JobKind): { items: JobItem[]; source: string | null } {
  const pending = (url: string): JobItem => ({ url, title: null, status: "pending", bytes: null, error: null });
  if (kind === "playlist") return { items: [], source: wholePlaylist(singleLink(input)!) };
  if (input.urls === undefined) return { items: [pending(checkLink(input.url))], source: null };
  const most = limitOf(owner.plan, "linksPerBulkJob") ?? 0;
  if (input.urls.length === 0) throw new JobError("job.invalid_link", "Add at least one link to download.");
  if (input.urls.length > most) throw new JobError("job.too_many_links", `A bulk job takes at most ${most} links; this one has ${input.urls.length}.`);
  return { items: input.urls.map((url, i) => pending(checkLink(url, i + 1))), source: null };
}

export function createScheduledJobs(deps: { db: Database; queue: JobQueue; now?: () => Date }) {
  const { db, queue } = deps;
  const now = deps.now ?? (() => new Date());

  async function owned(owner: JobOwner, id: string): Promise<JobRow> {
    const [row] = await db
      .select()
      .from(downloadJobs)
      .where(and(eq(downloadJobs.id, id), eq(downloadJobs.userId, owner.userId)))
      .limit(1);
    // another user's job is no different from one that does not exist
    if (!row) throw new JobError("job.not_found");
    return row;
  }

  /**
   * The row names a new queue job due at `runAt` (with `changes`) while its status is still
   * `from`, then the queue gets it: the row names it first (as at creation), so a worker that takes
   * it at once finds it claimed. A queue that refuses leaves the row as it was. Null when the row's
   * status had moved on.
   */
  async function requeue(row: JobRow, from: JobStatus, runAt: Date, changes: Partial<JobRow> = {}): Promise<JobRow | null> {
    const queueJobId = randomUUID();
    const [moved] = await db
      .update(downloadJobs)
      .set({ ...changes, runAt, queueJobId })
      .where(and(eq(downloadJobs.id, row.id), eq(downloadJobs.status, from)))
      .returning();
    if (!moved) return null;
    try {
      await queue.send(SCHEDULED_DOWNLOAD_QUEUE, { jobId: row.id }, { startAfter: runAt, id: queueJobId });
    } catch (err) {
      // the queue did not take it: the job keeps what it had, its time and queue job too
      const before = Object.fromEntries(Object.keys(changes).map((key) => [key, row[key as keyof JobRow]])) as Partial<JobRow>;
      await db
        .update(downloadJobs)
        .set({ ...before, runAt: row.runAt, queueJobId: row.queueJobId })
        .where(and(eq(downloadJobs.id, row.id), eq(downloadJobs.queueJobId, queueJobId)));
      throw err;
    }
    // the old queue job would find the job moved on and stop; cancelling it keeps the queue tidy
    if (row.queueJobId) await queue.cancel(SCHEDULED_DOWNLOAD_QUEUE, row.queueJobId).catch(() => undefined);
    return moved;
  }

  return {
    /** Schedules one download, or one ZIP of links or of a playlist, for `runAt` (now when absent). */
    async create(owner: JobOwner, input: JobInput): Promise<JobRow> {
      const at = now();
      const kind = kindOf(input);
      checkRight(owner, kind);
      const { items, source } = itemsOf(owner, input, kind);
      const runAt = input.runAt ?? at;
      checkRunAt(runAt, at);
      if (!(FORMAT_IDS as readonly string[]).includes(input.format)) throw new JobError("job.invalid_format");
      if (!mayDownload(owner.plan, input.format)) throw premiumRefusal(callerOfOwner(owner));
      const perDay = limitOf(owner.plan, "jobsPerDay");
      if (perDay !== null) {
        const [counted] = await db
          .select({ n: count() })
          .from(downloadJobs)
          .where(and(eq(downloadJobs.userId, owner.userId), gte(downloadJobs.createdAt, new Date(at.getTime() - 24 * 3600 * 1000))));
        if ((counted?.n ?? 0) >= perDay) throw new JobError("job.daily_limit");
      }
      const id = randomUUID();
      const queueJobId = randomUUID();
      await db
        .insert(downloadJobs)
        .values({
          id,
          userId: owner.userId,
          kind,
          source,
          name: input.name?.trim().slice(0, 200) || null,
          format: input.format,
          language: input.language ?? null,
          filenameTemplate: input.filenameTemplate ?? null,
          mediaOptions: input.options ? { ...input.options } : null,
          whiteLabel: input.whiteLabel === true && holds(owner.plan, "whiteLabel"),
          items,
          status: "scheduled",
          runAt,
          // the queue job's id is on the row before the queue has the job: a job due at once is
          // claimed by the worker that takes it, never found "moved on" for lack of its id
          queueJobId,
          createdAt: at,
        });
      try {
        await queue.send(SCHEDULED_DOWNLOAD_QUEUE, { jobId: id }, { startAfter: runAt, id: queueJobId });
        const [queued] = await db.select().from(downloadJobs).where(eq(downloadJobs.id, id));
        return queued!;
      } catch (err) {
        // a job the queue never took is not shown as scheduled
        await db.delete(downloadJobs).where(eq(downloadJobs.id, id));
        throw err;
      }
    },

    async list(owner: JobOwner, limit = 100): Promise<JobRow[]> {
      return db.select().from(downloadJobs).where(eq(downloadJobs.userId, owner.userId)).orderBy(desc(downloadJobs.createdAt)).limit(limit);
    },

    get: owned,

    /** Cancels a job that has not started. */
    async cancel(owner: JobOwner, id: string): Promise<JobRow> {
      const row = await owned(owner, id);
      const [canceled] = await db
        .update(downloadJobs)
        .set({ status: "canceled", finishedAt: now() })
        .where(and(eq(downloadJobs.id, row.id), eq(downloadJobs.status, "scheduled")))
        .returning();
      if (!canceled) throw new JobError("job.not_changeable");
      if (row.queueJobId) await queue.cancel(SCHEDULED_DOWNLOAD_QUEUE, row.queueJobId).catch(() => undefined);
      return canceled;
    },

    /** Moves a job that has not started to another time. */
    async reschedule(owner: JobOwner, id: string, runAt: Date): Promise<JobRow> {
      const row = await owned(owner, id);
      checkRight(owner, row.kind);
      checkRunAt(runAt, now());
      if (row.status !== "scheduled") throw new JobError("job.not_changeable");
      const moved = await requeue(row, "scheduled", runAt);
      if (!moved) throw new JobError("job.not_changeable");
      return moved;
    },

    /**
     * Runs a failed job again from the start, due now (an operator's Retry on /admin): its error,
     * progress and each link's outcome are cleared as for a new job. The owner's plan is checked
     * when it runs, as for any job. Any other status is refused. A refusal is returned, not thrown:
     * the caller is the app's server build, whose JobError is not the host bundle's class.
     */
    async rerun(id: string): Promise<{ ok: true; job: JobRow } | { ok: false; code: "job.not_found" | "job.not_changeable"; message: string }> {
      const refused = (status: JobStatus | undefined) =>
        status === undefined
          ? { ok: false as const, code: "job.not_found" as const, message: JOB_ERRORS["job.not_found"].message }
          : { ok: false as const, code: "job.not_changeable" as const, message: `Only a failed job can be run again; this one is ${status}.` };
      const [row] = await db.select().from(downloadJobs).where(eq(downloadJobs.id, id)).limit(1);
      if (row?.status !== "failed") return refused(row?.status);
      const fresh: Partial<JobRow> = {
        status: "scheduled",
        error: null,
        startedAt: null,
        finishedAt: null,
        bytesDone: 0,
        bytesTotal: null,
        // a playlist's videos are listed again when it runs
        items: row.kind === "playlist" ? [] : row.items.map((item) => ({ ...item, status: "pending", bytes: null, error: null })),
      };
      const again = await requeue(row, "failed", now(), fresh);
      if (again) return { ok: true, job: again };
      const [current] = await db.select({ status: downloadJobs.status }).from(downloadJobs).where(eq(downloadJobs.id, id));
      return refused(current?.status);
    },
  };
}

export type ScheduledJobs = ReturnType<typeof createScheduledJobs>;

/** Rows of jobs that ran, failed or were canceled more than 90 days ago (the retention sweep runs it). */
export async function pruneJobRecords(db: Database, now: Date): Promise<void> {
  await db.delete(downloadJobs).where(and(lt(downloadJobs.finishedAt, jobRecordCutoff(now)), isNull(downloadJobs.fileKey)));
}

/**
 * Files of finished jobs past their 24 hours: deleted from job storage and unlinked from their
 * rows (the cleanup job runs this hourly). Returns how many were removed.
 */
export async function deleteExpiredJobFiles(deps: { db: Database; deleteFile: (key: string) => Promise<void> }, now: Date): Promise<number> {
  const rows = await deps.db
    .select({ id: downloadJobs.id, fileKey: downloadJobs.fileKey })
    .from(downloadJobs)
    .where(and(isNotNull(downloadJobs.fileKey), lt(downloadJobs.expiresAt, now)))
    .limit(1000);
  let removed = 0;
  for (const row of rows) {
    await deps.deleteFile(row.fileKey!);
    await deps.db.update(downloadJobs).set({ fileKey: null }).where(eq(downloadJobs.id, row.id));
    removed++;
  }
  return removed;
}

