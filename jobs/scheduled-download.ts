/**
 * The scheduled-download job (issue 30 §2, §3 "As a job"): at its time, the job opens the
 * download (one file, or one ZIP of links or of a playlist's videos) through the same engine
 * call a request uses, writes it to job storage under the job's id (a retry after a crash
 * overwrites, so the file exists once), records progress on the job's row for every instance
 * to read, and mails the owner a signed link to the file, kept 24 hours.
 */
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq, inArray } from "drizzle-orm";
import type { Logger } from "pino";
import type { Mailer } from "#app/modules/account/mailer.server.ts";
import { getUserPlan } from "#app/modules/billing/user-plan.server.ts";
import { callerOfOwner, JOB_FILE_TTL_MS, SCHEDULED_DOWNLOAD_QUEUE } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { whiteLabelSender } from "#app/modules/white-label/white-label.server.ts";
import { holds } from "#common/plans.ts";
import type { Database } from "#db/client.ts";
import { users } from "#db/schema/account.ts";
import { downloadJobs, type JobItem } from "#db/schema/jobs.ts";
import { isEngineError } from "#engine/errors.ts";
import { parseMediaOptions, type Engine, type FilesProgress, type ManifestRow, type MediaOptions } from "#engine/index.ts";
import type { Caller } from "#engine/types.ts";

export interface ScheduledDownloadDeps {
  db: Database;
  logger: Logger;
  mailer: Mailer;
  siteName: string;
  publicUrl: string;
  /** the engine's openDownload: the same resolve, plan and stream a download link runs */
  openDownload: Engine["openDownload"];
  /** the engine's openBulkDownload: the same ZIP a bulk link streams */
  openBulkDownload: Engine["openBulkDownload"];
  storage: { put(key: string, body: Readable, meta: { contentType: string; filename: string }): Promise<{ bytes: number }>; delete(key: string): Promise<void> };
  /** the owner's signed link to a job's file, valid until `expiresAt` */
  fileLink(job: { jobId: string; userId: string; expiresAt: Date }): string;
  now?: () => Date;
  /** how often progress is written to the row */
  progressEveryMs?: number;
}

/** attempts of a download that failed for a reason another try may not have (the network, the platform) */
const ATTEMPTS = 3;
const RETRY_DELAY_MS = 5_000;

/** a ZIP job whose every link failed: nothing is kept */
const NONE_ARRIVED = "None of the links could be downloaded.";

function itemOfRow(r: ManifestRow): JobItem {
  return { url: r.source, title: r.title || null, status: r.status === "ok" ? "done" : "failed", bytes: r.bytes, error: r.error ?? null };
}

export function fileKeyOf(jobId: string): string {
  return `jobs/${jobId}`;
}

export function scheduledDownloadJob(deps: ScheduledDownloadDeps) {
  const now = deps.now ?? (() => new Date());
  const log = deps.logger.child({ job: SCHEDULED_DOWNLOAD_QUEUE });

  async function run(job: { id: string; data: { jobId: string }; signal: AbortSignal }): Promise<void> {
    const jobId = job.data.jobId;
    // claim: only the queue job the row names runs it (a reschedule or a cancel moved it on);
    // "running" too, for the same queue job retried after a crash
    const [row] = await deps.db
      .update(downloadJobs)
      .set({ status: "running", startedAt: now(), error: null })
      .where(and(eq(downloadJobs.id, jobId), eq(downloadJobs.queueJobId, job.id), inArray(downloadJobs.status, ["scheduled", "running"])))
      .returning();
    if (!row) {
      log.info({ jobId, queueJobId: job.id }, "scheduled download no longer wanted by this queue job");
      return;
    }
    const plan = await getUserPlan(deps.db, row.userId);
    const right = row.kind === "scheduled" ? "scheduledDownloads" : "bulkDownloads";
    if (!holds(plan.plan, right)) {
      const feature = row.kind === "scheduled" ? "Scheduled downloads are" : "Bulk downloads are";
      await finishFailed(jobId, `${feature} no longer part of your plan, so this job did not run.`);
      return;
    }
    const caller: Caller = callerOfOwner({ userId: row.userId, plan: plan.plan });
    const first = row.items[0];

    let lastError: unknown = null;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (job.signal.aborted) throw job.signal.reason;
      try {
        if (row.kind === "scheduled" && first) {
          const opened = await deps.openDownload({
            url: first.url,
            format: row.format,
            caller,
            ip: "job",
            signal: job.signal,
            ...(row.language ? { language: row.language } : {}),
            ...(row.filenameTemplate ? { filenameTemplate: row.filenameTemplate } : {}),
            ...optionsOf(row),
          });
          await deps.db.update(downloadJobs).set({ bytesTotal: opened.bytes, bytesDone: 0 }).where(eq(downloadJobs.id, jobId));
          const { bytes } = await deps.storage.put(fileKeyOf(jobId), withProgress(opened.stream, jobId, job.signal), { contentType: opened.contentType, filename: opened.filename });
          await finishDone(row, { filename: opened.filename, bytes, title: opened.title, items: [{ ...first, title: opened.title, status: "done", bytes, error: null }] });
          return;
        }
        // a ZIP: the links in order (a playlist's are listed now), each file's state on the row as it goes
        const links = row.kind === "playlist" ? { url: row.source ?? "" } : { urls: row.items.map((i) => i.url) };
        let listed: string[] = row.items.map((i) => i.url);
        const opened = await deps.openBulkDownload({
          ...links,
          format: row.format,
          caller,
          ip: "job",
          name: row.name ?? undefined,
          unbranded: row.whiteLabel,
          ...(row.language ? { language: row.language } : {}),
          ...(row.filenameTemplate ? { filenameTemplate: row.filenameTemplate } : {}),
          ...optionsOf(row),
          signal: job.signal,
          onFiles: (files) => void recordFiles(jobId, files, listed),
        });
        listed = opened.urls;
        const pending: JobItem[] = listed.map((url) => ({ url, title: null, status: "pending", bytes: null, error: null }));
        await deps.db.update(downloadJobs).set({ bytesTotal: null, bytesDone: 0, items: pending, name: row.name ?? (row.kind === "playlist" ? opened.title || null : null) }).where(eq(downloadJobs.id, jobId));
        const stored = deps.storage.put(fileKeyOf(jobId), withProgress(opened.stream, jobId, job.signal), { contentType: opened.contentType, filename: opened.filename });
        const [{ bytes }, rows] = await Promise.all([stored, opened.done]);
        listed = rows.map((r) => r.source);
        const items = rows.map(itemOfRow);
        if (items.every((i) => i.status === "failed")) {
          await deps.storage.delete(fileKeyOf(jobId)).catch(() => undefined);
          await finishFailed(jobId, items.length === 1 ? (items[0]!.error ?? NONE_ARRIVED) : NONE_ARRIVED, items);
          return;
        }
        const title = row.name ?? (row.kind === "playlist" ? opened.title : `ZIP of ${items.length} links`);
        await finishDone(row, { filename: opened.filename, bytes, title, items });
        return;
      } catch (err) {
        if (job.signal.aborted) throw err; // shutting down: the queue runs it again after the restart
        lastError = err;
        const retryable = isEngineError(err) ? err.code.startsWith("upstream.") || err.code === "download.busy" : true;
        log.warn({ err, jobId, attempt }, "scheduled download attempt failed");
        if (!retryable || attempt === ATTEMPTS) break;
        await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * attempt));
      }
    }
    const message = isEngineError(lastError) ? lastError.message : "The download failed. Please try again later.";
    await finishFailed(jobId, message, first && row.kind === "scheduled" ? [{ url: first.url, title: first.title, status: "failed", bytes: null, error: message }] : undefined);
  }

  async function finishDone(row: { id: string; userId: string; whiteLabel: boolean }, file: { filename: string; bytes: number; title: string; items: JobItem[] }) {
    const jobId = row.id;
    const finishedAt = now();
    const expiresAt = new Date(finishedAt.getTime() + JOB_FILE_TTL_MS);
    await deps.db
      .update(downloadJobs)
      .set({ status: "done", fileKey: fileKeyOf(jobId), filename: file.filename, fileBytes: file.bytes, bytesDone: file.bytes, bytesTotal: file.bytes, expiresAt, finishedAt, items: file.items })
      .where(eq(downloadJobs.id, jobId));
    await mailReady(row.userId, { jobId, title: file.title, expiresAt, whiteLabel: row.whiteLabel }).catch((err: unknown) => log.warn({ err, jobId }, "could not mail the ready notice"));
  }

  async function finishFailed(jobId: string, message: string, items?: JobItem[]) {
    await deps.db
      .update(downloadJobs)
      .set({ status: "failed", error: message, finishedAt: now(), ...(items ? { items } : {}) })
      .where(eq(downloadJobs.id, jobId));
  }

  /** a ZIP's files as the job's items, while it runs (a playlist's links come from its listing) */
  async function recordFiles(jobId: string, files: FilesProgress, links: string[]) {
    const items: JobItem[] = files.items.map((f, i) => ({
      url: links[i] ?? "",
      title: f.title,
      status: f.status === "done" || f.status === "failed" ? f.status : "pending",
      bytes: null,
      error: f.error ?? null,
    }));
    if (items.some((i) => !i.url)) return;
    await deps.db.update(downloadJobs).set({ items }).where(eq(downloadJobs.id, jobId)).catch(() => undefined);
  }

  /** counts bytes into the row, at most every `progressEveryMs` (and once at the end) */
  function withProgress(source: Readable, jobId: string, signal: AbortSignal): Readable {
    let done = 0;
    let last = 0;
    const every = deps.progressEveryMs ?? 1000;
    const write = () => deps.db.update(downloadJobs).set({ bytesDone: done }).where(eq(downloadJobs.id, jobId)).catch(() => undefined);
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        done += chunk.length;
        const t = Date.now();
        if (t - last >= every) {
          last = t;
          void write();
        }
        cb(null, chunk);
      },
    });
    void pipeline(source, counter, { signal }).catch((err: unknown) => counter.destroy(err as Error));
    return counter;
  }

  async function mailReady(userId: string, job: { jobId: string; title: string; expiresAt: Date; whiteLabel: boolean }) {
    const [user] = await deps.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) return;
    const link = deps.fileLink({ jobId: job.jobId, userId, expiresAt: job.expiresAt });
    const kept = `The file is kept until ${job.expiresAt.toUTCString()}, then deleted.`;
    if (job.whiteLabel) {
      // a job made through a white-labelled API call: no site name, no link to the site's pages
      const sender = await whiteLabelSender(deps.db, userId);
      const text = [`Hi ${user.name},`, "", `Your download "${job.title}" is ready:`, link, "", kept, ...(sender ? ["", `— ${sender}`] : [])].join("\n");
      await deps.mailer.send({ to: user.email, subject: "Your download is ready", text, ...(sender ? { fromName: sender } : {}) });
      return;
    }
    const text = [
      `Hi ${user.name},`,
      "",
      `Your scheduled download "${job.title}" is ready:`,
      link,
      "",
      `${kept} You can also find it on your dashboard: ${new URL("/dashboard", deps.publicUrl).href}`,
      "",
      `— ${deps.siteName}`,
    ].join("\n");
    await deps.mailer.send({ to: user.email, subject: `Your ${deps.siteName} download is ready`, text });
  }

  return {
    queue: SCHEDULED_DOWNLOAD_QUEUE,
    run,
  };
}

/** The media options a job was made with, checked again (the row outlives a release); none kept: the defaults. */
function optionsOf(row: { mediaOptions: Record<string, unknown> | null }): { options?: MediaOptions } {
  return row.mediaOptions ? { options: parseMediaOptions(row.mediaOptions) } : {};
}
