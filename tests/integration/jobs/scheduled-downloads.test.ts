/**
 * Issue 30 §2 through the API as the host mounts it, on the job queue: a Pro user schedules a
 * download of the mock platform, the queue runs it at its time through the engine, the file lands
 * in job storage and reaches its owner by a signed link (mailed too); other users see a 404, a
 * free user is refused by plan, a job is canceled or moved before it starts, and a file past its
 * 24 hours is gone. PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import express from "express";
import { eq } from "drizzle-orm";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { MailMessage } from "#app/modules/account/mailer.server.ts";
import { createScheduledJobs, deleteExpiredJobFiles } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { downloadJobs } from "#db/schema/jobs.ts";
import { scheduledDownloadJob } from "#jobs/scheduled-download.ts";
import { MOCK_GENERIC_HOST, SLOW_FILE_PATH } from "#tests/mocks/platform.ts";
import { signFileLink, verifyFileLink } from "#jobs/storage/file-links.ts";
import { createJobStorage } from "#jobs/storage/job-storage.ts";
import { createJobsRouter } from "#server/api/jobs.ts";
import { testAccounts } from "#tests/support/accounts.ts";
import { testDatabases, withTestDatabase } from "#tests/support/test-db.ts";
import { ffprobeFile } from "../media/helpers.ts";
import { ALL_FORMATS_URL, closePlatform, startPlanFixture } from "../plans/plan-fixture.ts";
import { silentLogger } from "../youtube/helpers.ts";
import { startJobQueue } from "./job-queue-fixture.ts";

const execFileAsync = promisify(execFile);

afterAll(() => closePlatform());

/** The queue's handler of a scheduled download, run by a test itself, on the fixture's engine; its mails land in `mails`. */
function queueHandler(db: Parameters<typeof scheduledDownloadJob>[0]["db"], fixture: Awaited<ReturnType<typeof startPlanFixture>>, storage: ReturnType<typeof createJobStorage>, mails: MailMessage[]) {
  return scheduledDownloadJob({
    db,
    logger: silentLogger,
    mailer: { send: async (m: MailMessage) => void mails.push(m) } as never,
    siteName: "VidFetch",
    publicUrl: "http://localhost:3000",
    openDownload: (input) => fixture.engine.openDownload(input),
    openBulkDownload: (input) => fixture.engine.openBulkDownload(input),
    storage,
    fileLink: () => "http://localhost:3000/file",
    progressEveryMs: 50,
  });
}

interface JobBody {
  id: string;
  status: string;
  runAt: string;
  progress: { bytes: number; total: number | null; percent: number | null };
  items: Array<{ url: string; title: string | null; status: string }>;
  downloadUrl: string | null;
  expiresAt: string | null;
  error: string | null;
  bytes: number | null;
}

describe.each(testDatabases)("scheduled downloads on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);

  it.skipIf(skip)("run at their time through the engine, reach their owner only, and can be canceled or moved before they start", async () => {
    const db = await open();
    const fixture = await startPlanFixture(db);
    const secret = randomBytes(32).toString("hex");
    const app = express();
    const server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const links = {
      fileLink: (job: { jobId: string; userId: string; expiresAt: Date }) => `${origin}/api/v1/jobs/${job.jobId}/file?token=${encodeURIComponent(signFileLink(job, secret))}`,
      verifyFileLink: (token: string) => verifyFileLink(token, secret),
    };
    const queue = await startJobQueue(db, fixture, { publicUrl: origin, fileLink: links.fileLink });
    const { runner, storage, dataDir, mails } = queue;
    try {
      const jobs = createScheduledJobs({ db: db.db, queue: runner });
      app.use("/api/v1/jobs", createJobsRouter({ db: db.db, accounts: testAccounts(db.db), logger: silentLogger, jobs, files: storage, links }));
      const call = (method: string, p: string, cookie: string, body?: unknown) =>
        fetch(`${origin}/api/v1/jobs${p}`, { method, headers: { cookie, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });

      const pro = await fixture.signUp("Pro", "pro");
      const other = await fixture.signUp("Other", "pro");
      const free = await fixture.signUp("Free");

      // a free user is refused by the plan table's wording; no session is a 401
      const refused = await call("POST", "/", free.cookie, { url: ALL_FORMATS_URL, format: "mp4-360", runAt: new Date(Date.now() + 60_000).toISOString() });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: "plan.required", message: "Scheduled downloads come with the Pro and Ultimate plans. Subscribe to use them." } });
      expect((await call("GET", "/", "")).status).toBe(401);
      // a time in the past, or malformed, is refused
      const past = await call("POST", "/", pro.cookie, { url: ALL_FORMATS_URL, format: "mp4-360", runAt: new Date(Date.now() - 86_400_000).toISOString() });
      expect(past.status).toBe(400);
      expect(((await past.json()) as { error: { code: string } }).error.code).toBe("job.invalid_run_at");
      expect((await call("POST", "/", pro.cookie, { url: ALL_FORMATS_URL, format: "mp4-360", runAt: "tomorrow" })).status).toBe(400);
      // a premium format outside the plan: Pro has 2160p, not an unknown id
      expect((await call("POST", "/", pro.cookie, { url: ALL_FORMATS_URL, format: "mp4-9999", runAt: new Date().toISOString() })).status).toBe(400);

      // scheduled two seconds ahead
      const runAt = new Date(Date.now() + 2000);
      const created = await call("POST", "/", pro.cookie, { url: ALL_FORMATS_URL, format: "mp4-360", runAt: runAt.toISOString() });
      expect(created.status).toBe(201);
      const { id, status } = (await created.json()) as JobBody;
      expect(status).toBe("scheduled");
      // another user's job does not exist for them
      expect((await call("GET", `/${id}`, other.cookie)).status).toBe(404);
      expect((await call("DELETE", `/${id}`, other.cookie)).status).toBe(404);

      let job: JobBody | null = null;
      for (let i = 0; i < 300 && job?.status !== "done" && job?.status !== "failed"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        job = (await (await call("GET", `/${id}`, pro.cookie)).json()) as JobBody;
      }
      expect(job?.error).toBeNull();
      expect(job?.status).toBe("done");
      const [row] = await db.db.select().from(downloadJobs).where(eq(downloadJobs.id, id));
      // it did not start before its time
      expect(row!.startedAt!.getTime()).toBeGreaterThanOrEqual(runAt.getTime());
      expect(job!.progress.percent).toBe(100);
      expect(job!.items[0]).toMatchObject({ url: ALL_FORMATS_URL, status: "done" });
      expect(job!.items[0]!.title).toBeTruthy();

      // the signed link gives the file, whole, to anyone holding it; a tampered one is refused
      const file = await fetch(job!.downloadUrl!);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-disposition")).toMatch(/^attachment;/);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.length).toBe(job!.bytes);
      const saved = path.join(dataDir, "got.mp4");
      await writeFile(saved, bytes);
      const probe = await ffprobeFile(saved);
      expect(probe.streams.some((s: { codec_type: string }) => s.codec_type === "video")).toBe(true);
      const part = await fetch(job!.downloadUrl!, { headers: { range: "bytes=10-19" } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));
      const tampered = job!.downloadUrl!.replace(/token=([^&]{6})/, "token=AAAAAA");
      expect((await fetch(tampered)).status).toBe(403);

      // the owner was mailed that link
      expect(mails).toHaveLength(1);
      expect(mails[0]!.to).toMatch(/^pro-/);
      expect(mails[0]!.text).toContain(`/api/v1/jobs/${id}/file?token=`);

      // cancel before it starts; a second cancel has nothing to cancel
      const later = (await (await call("POST", "/", pro.cookie, { url: ALL_FORMATS_URL, format: "mp3-128", runAt: new Date(Date.now() + 3600_000).toISOString() })).json()) as JobBody;
      const canceled = await call("DELETE", `/${later.id}`, pro.cookie);
      expect(((await canceled.json()) as JobBody).status).toBe("canceled");
      expect((await call("DELETE", `/${later.id}`, pro.cookie)).status).toBe(409);

      // move a job to another time
      const moving = (await (await call("POST", "/", pro.cookie, { url: ALL_FORMATS_URL, format: "mp3-128", runAt: new Date(Date.now() + 3600_000).toISOString() })).json()) as JobBody;
      const newTime = new Date(Date.now() + 7200_000);
      const moved = (await (await call("PATCH", `/${moving.id}`, pro.cookie, { runAt: newTime.toISOString() })).json()) as JobBody;
      expect(moved.runAt).toBe(newTime.toISOString());
      expect(moved.status).toBe("scheduled");

      // the list is the caller's own, newest first
      const list = (await (await call("GET", "/", pro.cookie)).json()) as { jobs: JobBody[] };
      expect(list.jobs.map((j) => j.id)).toEqual([moving.id, later.id, id]);
      expect(((await (await call("GET", "/", other.cookie)).json()) as { jobs: JobBody[] }).jobs).toEqual([]);

      // 24 hours on: the cleanup deletes the file, and its link answers 410
      const removed = await deleteExpiredJobFiles({ db: db.db, deleteFile: (key) => storage.delete(key) }, new Date(Date.now() + 25 * 3600_000));
      expect(removed).toBe(1);
      expect(await storage.open(`jobs/${id}`)).toBeNull();
      await db.db.update(downloadJobs).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(downloadJobs.id, id));
      expect((await fetch(job!.downloadUrl!)).status).toBe(410);
    } finally {
      await queue.close();
      await fixture.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 90_000);

  it.skipIf(skip)("interrupted mid-download (a crash, a restart), the same queue job runs again and completes once", async () => {
    const db = await open();
    const fixture = await startPlanFixture(db);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-jobs-"));
    try {
      const storage = createJobStorage({ dataDir, maxBytes: 512 * 1024 * 1024, logger: silentLogger });
      const mails: MailMessage[] = [];
      // the queue job's id is the one the module chose (and wrote on the row before sending)
      let queueJobId = "";
      const jobs = createScheduledJobs({ db: db.db, queue: { send: async (_q, _d, opts) => (queueJobId = opts.id), cancel: async () => undefined } });
      const { userId } = await fixture.signUp("Restart", "pro");
      const row = await jobs.create({ userId, plan: "pro" }, { url: `https://${MOCK_GENERIC_HOST}${SLOW_FILE_PATH}`, format: "mp4-360" });
      const job = queueHandler(db.db, fixture, storage, mails);
      // the first run stops half-way, as a process killed mid-download does (its signal aborts)
      const first = new AbortController();
      const running = job.run({ id: queueJobId, data: { jobId: row.id }, signal: first.signal });
      await expect.poll(async () => (await db.db.select().from(downloadJobs).where(eq(downloadJobs.id, row.id)))[0]!.bytesDone, { timeout: 10_000 }).toBeGreaterThan(0);
      first.abort(new Error("shutting down"));
      await expect(running).rejects.toThrow();
      expect((await db.db.select().from(downloadJobs).where(eq(downloadJobs.id, row.id)))[0]!.status).toBe("running");
      expect(await storage.open(`jobs/${row.id}`)).toBeNull();
      // a stale queue job (the job was moved to another) does nothing
      await job.run({ id: "queue-job-0", data: { jobId: row.id }, signal: new AbortController().signal });
      expect(mails).toHaveLength(0);
      // the queue retries the same job after the restart: it completes, one file, one mail
      await job.run({ id: queueJobId, data: { jobId: row.id }, signal: new AbortController().signal });
      const [done] = await db.db.select().from(downloadJobs).where(eq(downloadJobs.id, row.id));
      expect(done!.status).toBe("done");
      const file = await storage.open(`jobs/${row.id}`);
      expect(file?.bytes).toBe(done!.fileBytes);
      file?.stream.destroy();
      expect(mails).toHaveLength(1);
      // and a run after it is done changes nothing
      await job.run({ id: queueJobId, data: { jobId: row.id }, signal: new AbortController().signal });
      expect(mails).toHaveLength(1);
    } finally {
      await fixture.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(skip)("a job keeps the media options it was made with (tags off, a clip), through the API, and its file honours them", async () => {
    const db = await open();
    const fixture = await startPlanFixture(db);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-jobs-"));
    const app = express();
    const server = http.createServer(app);
    try {
      const storage = createJobStorage({ dataDir, maxBytes: 512 * 1024 * 1024, logger: silentLogger });
      const queued = new Map<string, string>();
      const jobs = createScheduledJobs({ db: db.db, queue: { send: async (_q, data, opts) => (queued.set(data.jobId, opts.id), opts.id), cancel: async () => undefined } });
      const links = { fileLink: () => "http://localhost:3000/file", verifyFileLink: () => null };
      app.use("/api/v1/jobs", createJobsRouter({ db: db.db, accounts: testAccounts(db.db), logger: silentLogger, jobs, files: storage, links }));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const pro = await fixture.signUp("Options", "pro");
      const job = queueHandler(db.db, fixture, storage, []);
      /** made through the API, run by the queue's handler; the file's format tags and duration */
      const made = async (extra: Record<string, unknown>) => {
        const res = await fetch(`${origin}/api/v1/jobs`, {
          method: "POST",
          headers: { cookie: pro.cookie, "content-type": "application/json" },
          body: JSON.stringify({ url: ALL_FORMATS_URL, format: "m4a", ...extra }),
        });
        expect(res.status).toBe(201);
        const { id } = (await res.json()) as JobBody;
        await job.run({ id: queued.get(id)!, data: { jobId: id }, signal: new AbortController().signal });
        const [row] = await db.db.select().from(downloadJobs).where(eq(downloadJobs.id, id));
        expect(row!.error).toBeNull();
        const file = (await storage.open(`jobs/${id}`))!;
        const saved = path.join(dataDir, `${id}.m4a`);
        await writeFile(saved, Buffer.concat(await file.stream.toArray()));
        const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-show_entries", "format=duration:format_tags=title", "-of", "json", saved]);
        const format = (JSON.parse(stdout) as { format: { duration: string; tags?: { title?: string } } }).format;
        return { row: row!, title: format.tags?.title ?? null, duration: Number(format.duration) };
      };
      const tagged = await made({});
      expect(tagged.row.mediaOptions).toEqual({ tags: true });
      expect(tagged.title).toBeTruthy();
      const bare = await made({ tags: false });
      expect(bare.row.mediaOptions).toEqual({ tags: false });
      expect(bare.title).toBeNull();
      const clip = await made({ tags: false, start: 1, end: "0:03" });
      expect(clip.row.mediaOptions).toEqual({ tags: false, start: 1, end: 3 });
      expect(clip.duration).toBeGreaterThan(1.8);
      expect(clip.duration).toBeLessThan(2.6);
      // an option the API does not take is refused by name before any job exists
      const unknown = await fetch(`${origin}/api/v1/jobs`, {
        method: "POST",
        headers: { cookie: pro.cookie, "content-type": "application/json" },
        body: JSON.stringify({ url: ALL_FORMATS_URL, format: "m4a", tags: "sometimes" }),
      });
      expect(unknown.status).toBe(400);
      // a split by chapter (docs/decisions/070): of one video only; a video without chapters fails its job with the catalogue's words
      const post = (body: Record<string, unknown>) => fetch(`${origin}/api/v1/jobs`, { method: "POST", headers: { cookie: pro.cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
      const severalSplit = await post({ urls: [ALL_FORMATS_URL, ALL_FORMATS_URL], format: "m4a", chapters: "split" });
      expect([severalSplit.status, ((await severalSplit.json()) as { error: { code: string } }).error.code]).toEqual([400, "request.invalid"]);
      const split = await post({ url: ALL_FORMATS_URL, format: "m4a", chapters: "split" });
      expect(split.status).toBe(201);
      const { id: splitId } = (await split.json()) as JobBody;
      await job.run({ id: queued.get(splitId)!, data: { jobId: splitId }, signal: new AbortController().signal });
      const [splitRow] = await db.db.select().from(downloadJobs).where(eq(downloadJobs.id, splitId));
      expect([splitRow!.mediaOptions, splitRow!.status, splitRow!.error]).toEqual([{ tags: true, chapters: "split" }, "failed", "This video has no chapters to split it by."]);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await fixture.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
