/**
 * Issue 30 §3 "As a job" through the jobs API as the host mounts it: an Ultimate user's bulk job
 * (several links) and playlist job (a playlist link, listed when it runs) each leave one ZIP in job
 * storage with its manifest, the job's items say how each link went, and the owner gets the
 * signed link; a job whose every link fails keeps nothing; other plans are refused by the plan
 * table's wording; too many links, or a malformed one, are refused when the job is created.
 * The queue is a recorder here (the pg-boss runner is proven in scheduled-downloads.test.ts):
 * each queued job is run by the handler as the runner would.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MailMessage } from "#app/modules/account/mailer.server.ts";
import { createApiKeys, type ApiKeys } from "#app/modules/api-keys/api-keys.server.ts";
import { createScheduledJobs } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { saveSenderName } from "#app/modules/white-label/white-label.server.ts";
import { scheduledDownloadJob } from "#jobs/scheduled-download.ts";
import { signFileLink, verifyFileLink } from "#jobs/storage/file-links.ts";
import { createJobStorage, type JobStorage } from "#jobs/storage/job-storage.ts";
import { apiKeyAuth } from "#server/api/api-key-auth.ts";
import { createJobsRouter } from "#server/api/jobs.ts";
import { createProfiles, type Profiles } from "#app/modules/profiles/profiles.server.ts";
import { MOCK_PLATFORM_PLAYLISTS } from "#tests/mocks/platform.ts";
import { testAccounts } from "#tests/support/accounts.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { ffprobeFile } from "../media/helpers.ts";
import { run } from "../media/zip-readers.ts";
import { closePlatform, startPlanFixture, type PlanFixture } from "../plans/plan-fixture.ts";
import { silentLogger } from "../youtube/helpers.ts";

afterAll(() => closePlatform());

const GOOD = ["https://www.youtube.com/watch?v=vidfetchAll", "https://www.youtube.com/watch?v=vidfetch720"];
const PRIVATE = "https://www.youtube.com/watch?v=vidfetchPrv";
const LIST = MOCK_PLATFORM_PLAYLISTS[0]!;
const PLAYLIST_URL = `https://www.youtube.com/playlist?list=${LIST.id}`;

interface JobBody {
  id: string;
  kind: string;
  name: string | null;
  status: string;
  url: string;
  items: Array<{ url: string; title: string | null; status: string; bytes: number | null; error: string | null }>;
  filename: string | null;
  downloadUrl: string | null;
  error: string | null;
  progress: { bytes: number; percent: number | null };
}

/** the archive's entries and manifest rows (position, title, source, …, status, error) */
async function unzipJobFile(url: string, dir: string): Promise<{ names: string[]; rows: string[][]; out: string }> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  const zipPath = path.join(dir, "job.zip");
  await writeFile(zipPath, Buffer.from(await res.arrayBuffer()));
  expect(await run("unzip", ["-t", zipPath])).toContain("No errors detected");
  const names = (await run("zipinfo", ["-1", zipPath])).trim().split("\n");
  const out = path.join(dir, "out");
  await run("unzip", ["-q", zipPath, "-d", out]);
  const manifest = (await readFile(path.join(out, "manifest.csv"), "utf8")).slice(1);
  // the mock's titles and errors hold no commas or quotes: a split is enough here
  const rows = manifest.trim().split("\r\n").slice(1).map((line) => line.split(","));
  return { names, rows, out };
}

describe.each(testDatabases)("bulk and playlist jobs on $name", (variant) => {
  const { skip, openShared } = withTestDatabase(variant);
  let db: TestDatabase;
  let fx: PlanFixture;
  let server: http.Server;
  let origin: string;
  let dataDir: string;
  let storage: JobStorage;
  const mails: MailMessage[] = [];
  const queued: Array<{ id: string; jobId: string }> = [];
  let runJob: (jobId: string) => Promise<void>;
  let profiles: Profiles;
  let keys: ApiKeys;
  let runQueueJob: (queueJobId: string, jobId: string) => Promise<void>;

  beforeAll(async () => {
    if (skip) return;
    db = await openShared();
    fx = await startPlanFixture(db);
    dataDir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-bulk-jobs-"));
    storage = createJobStorage({ dataDir, maxBytes: 512 * 1024 * 1024, logger: silentLogger });
    const secret = randomBytes(32).toString("hex");
    const app = express();
    server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const links = {
      fileLink: (job: { jobId: string; userId: string; expiresAt: Date }) => `${origin}/api/v1/jobs/${job.jobId}/file?token=${encodeURIComponent(signFileLink(job, secret))}`,
      verifyFileLink: (token: string) => verifyFileLink(token, secret),
    };
    const queue = {
      send: async (_queue: string, data: { jobId: string }, opts: { id: string }) => {
        queued.push({ id: opts.id, jobId: data.jobId });
        return opts.id;
      },
      cancel: async () => undefined,
    };
    const handler = scheduledDownloadJob({
      db: db.db,
      logger: silentLogger,
      mailer: { send: async (m: MailMessage) => void mails.push(m) } as never,
      siteName: "VidFetch",
      publicUrl: origin,
      openDownload: (input) => fx.engine.openDownload(input),
      openBulkDownload: (input) => fx.engine.openBulkDownload(input),
      storage,
      fileLink: links.fileLink,
      progressEveryMs: 50,
    });
    runQueueJob = (queueJobId, jobId) => handler.run({ id: queueJobId, data: { jobId }, signal: new AbortController().signal });
    runJob = async (jobId) => {
      const entry = queued.find((q) => q.jobId === jobId)!;
      await handler.run({ id: entry.id, data: { jobId }, signal: new AbortController().signal });
    };
    const jobs = createScheduledJobs({ db: db.db, queue });
    profiles = createProfiles({ db: db.db });
    keys = createApiKeys({ db: db.db });
    // as the host mounts it: a request with a key is made as the key's owner
    app.use("/api/v1", apiKeyAuth({ keys, db: db.db, logger: silentLogger }));
    app.use("/api/v1/jobs", createJobsRouter({ db: db.db, accounts: testAccounts(db.db), logger: silentLogger, jobs, files: storage, links, profiles }));
  }, 120_000);

  afterAll(async () => {
    await fx?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const call = (method: string, p: string, cookie: string, body?: unknown) =>
    fetch(`${origin}/api/v1/jobs${p}`, { method, headers: { cookie, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const getJob = async (id: string, cookie: string) => (await (await call("GET", `/${id}`, cookie)).json()) as JobBody;

  it.skipIf(skip)("a bulk job of two links and a broken one leaves one ZIP whose manifest and items say how each went", async () => {
    const user = await fx.signUp("BulkJob", "ultimate");
    const urls = [GOOD[0]!, PRIVATE, GOOD[1]!];
    const created = await call("POST", "/", user.cookie, { urls, format: "mp4-360", name: "Evening list" });
    expect(created.status).toBe(201);
    const { id, status } = (await created.json()) as JobBody;
    expect(status).toBe("queued");
    const before = await getJob(id, user.cookie);
    expect(before).toMatchObject({ kind: "bulk", name: "Evening list", url: urls[0] });
    expect(before.items.map((i) => [i.url, i.status])).toEqual(urls.map((u) => [u, "pending"]));

    await runJob(id);
    const job = await getJob(id, user.cookie);
    expect(job.status).toBe("done");
    expect(job.error).toBeNull();
    expect(job.filename).toBe("Evening list.zip");
    expect(job.progress.percent).toBe(100);
    expect(job.items.map((i) => [i.url, i.title, i.status, i.error])).toEqual([
      [urls[0], "Sample clip in every quality", "done", null],
      [urls[1], null, "failed", "This video is private."],
      [urls[2], "Sample clip up to 720p", "done", null],
    ]);

    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-bulk-job-"));
    try {
      const { names, rows, out } = await unzipJobFile(job.downloadUrl!, dir);
      expect(names).toEqual(["Sample clip in every quality (360p).mp4", "Sample clip up to 720p (360p).mp4", "manifest.csv"]);
      expect(rows.map((r) => [r[0], r[2], r[7]])).toEqual([
        ["1", urls[0], "ok"],
        ["2", urls[1], "failed"],
        ["3", urls[2], "ok"],
      ]);
      for (const [index, name] of names.slice(0, -1).entries()) {
        const probe = await ffprobeFile(path.join(out, name));
        expect(probe.streams.find((s) => s.codec_type === "video")?.height).toBe(360);
        // each item's bytes are its file's
        expect(job.items[index === 0 ? 0 : 2]!.bytes).toBe((await readFile(path.join(out, name))).length);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // the owner is mailed the link to the ZIP
    expect(mails.at(-1)?.text).toContain(`/api/v1/jobs/${id}/file?token=`);
    expect(mails.at(-1)?.text).toContain('"Evening list"');
  }, 120_000);

  it.skipIf(skip)("a playlist job is listed when it runs and leaves a ZIP named after the playlist", async () => {
    const user = await fx.signUp("PlaylistJob", "ultimate");
    const runAt = new Date(Date.now() + 3600_000).toISOString();
    const created = await call("POST", "/", user.cookie, { url: PLAYLIST_URL, format: "mp3-128", runAt });
    expect(created.status).toBe(201);
    const { id, status } = (await created.json()) as JobBody;
    expect(status).toBe("scheduled");
    const before = await getJob(id, user.cookie);
    expect(before).toMatchObject({ kind: "playlist", url: PLAYLIST_URL, items: [], name: null });

    await runJob(id);
    const job = await getJob(id, user.cookie);
    expect(job.status).toBe("done");
    expect(job.name).toBe(LIST.title);
    expect(job.filename).toBe(`${LIST.title}.zip`);
    expect(job.items.map((i) => [i.url, i.status])).toEqual(LIST.videoIds.map((v) => [`https://www.youtube.com/watch?v=${v}`, "done"]));
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-playlist-job-"));
    try {
      const { names, rows, out } = await unzipJobFile(job.downloadUrl!, dir);
      expect(names).toHaveLength(4);
      expect(rows.map((r) => r[7])).toEqual(["ok", "ok", "ok"]);
      const probe = await ffprobeFile(path.join(out, names[0]!));
      expect(probe.streams.map((s) => s.codec_type)).toContain("audio");
      expect(probe.formatName).toBe("mp3");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it.skipIf(skip)("a playlist link sent alone as urls is a playlist job; among other links it is refused by its line", async () => {
    const user = await fx.signUp("PlaylistAsUrls", "ultimate");
    const created = await call("POST", "/", user.cookie, { urls: [PLAYLIST_URL], format: "mp3-128", runAt: new Date(Date.now() + 3600_000).toISOString() });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as JobBody;
    expect(await getJob(id, user.cookie)).toMatchObject({ kind: "playlist", url: PLAYLIST_URL, items: [] });
    const mixed = await call("POST", "/", user.cookie, { urls: [GOOD[0], PLAYLIST_URL], format: "mp3-128" });
    expect(mixed.status).toBe(400);
    expect(await mixed.json()).toEqual({ error: { code: "job.invalid_link", message: "Link 2: A playlist link goes alone: paste it by itself to download its videos." } });
  });

  it.skipIf(skip)("an unnamed bulk job keeps no name and its mail names it by its links", async () => {
    const user = await fx.signUp("Unnamed", "ultimate");
    const { id } = (await (await call("POST", "/", user.cookie, { urls: GOOD, format: "mp3-128" })).json()) as JobBody;
    await runJob(id);
    const job = await getJob(id, user.cookie);
    expect(job).toMatchObject({ status: "done", name: null, filename: `VidFetch bulk ${new Date().toISOString().slice(0, 10)}.zip` });
    expect(mails.at(-1)?.text).toContain('"ZIP of 2 links"');
  }, 60_000);

  it.skipIf(skip)("a job made with an Ultimate API key is white-labelled: its ZIP and its mail carry no site name, the mail comes from the sender name", async () => {
    const user = await fx.signUp("WhiteLabel", "ultimate");
    const { key } = await keys.create({ userId: user.userId, plan: "ultimate" }, "Reseller");
    await saveSenderName(db.db, { userId: user.userId, plan: "ultimate" }, "Acme Media");
    const created = await fetch(`${origin}/api/v1/jobs`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ urls: GOOD, format: "mp3-128" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as JobBody;
    await runJob(id);
    const job = await getJob(id, user.cookie);
    expect(job).toMatchObject({ status: "done", filename: `Bulk ${new Date().toISOString().slice(0, 10)}.zip` });
    const file = await fetch(job.downloadUrl!);
    expect(file.headers.get("content-disposition")).toContain(`filename="Bulk ${new Date().toISOString().slice(0, 10)}.zip"`);
    await file.arrayBuffer();
    const mail = mails.at(-1)!;
    expect(mail).toMatchObject({ fromName: "Acme Media", subject: "Your download is ready" });
    expect(mail.text).toContain(`/api/v1/jobs/${id}/file?token=`);
    expect(mail.text.trimEnd().endsWith("— Acme Media")).toBe(true);
    expect(`${mail.subject}\n${mail.text}`).not.toMatch(/VidFetch|\/dashboard/);

    // the same user on the site (a session) is not white-labelled
    const { id: own } = (await (await call("POST", "/", user.cookie, { urls: GOOD, format: "mp3-128" })).json()) as JobBody;
    await runJob(own);
    expect((await getJob(own, user.cookie)).filename).toMatch(/^VidFetch bulk /);
    expect(mails.at(-1)).toMatchObject({ subject: "Your VidFetch download is ready" });
    expect(mails.at(-1)?.fromName).toBeUndefined();
  }, 120_000);

  it.skipIf(skip)("a scheduled download made with a profile takes its format and names its file by the template", async () => {
    const user = await fx.signUp("ProfileJob", "ultimate");
    const profile = await profiles.create({ userId: user.userId, plan: "ultimate" }, { name: "Music", format: "mp3-128", filenameTemplate: "{channel} - {title}" });
    const created = await call("POST", "/", user.cookie, { url: GOOD[0], profile: profile.id });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as JobBody;
    await runJob(id);
    const job = await getJob(id, user.cookie);
    expect(job).toMatchObject({ status: "done", filename: "VidFetch Samples - Sample clip in every quality.mp3" });
    // another account's profile is not theirs to use
    const other = await fx.signUp("ProfileThief", "ultimate");
    const refused = await call("POST", "/", other.cookie, { url: GOOD[0], profile: profile.id });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("profile.not_found");
  }, 60_000);

  it.skipIf(skip)("a ZIP job made with a profile names every file in the archive by its template", async () => {
    const user = await fx.signUp("ProfileZip", "ultimate");
    const profile = await profiles.create({ userId: user.userId, plan: "ultimate" }, { name: "Ids", format: "mp3-128", filenameTemplate: "{id} ({platform})" });
    const created = await call("POST", "/", user.cookie, { urls: GOOD, profile: profile.id });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as JobBody;
    await runJob(id);
    const job = await getJob(id, user.cookie);
    expect(job.status).toBe("done");
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-profile-zip-"));
    try {
      const { names } = await unzipJobFile(job.downloadUrl!, dir);
      expect(names).toEqual(["vidfetchAll (youtube).mp3", "vidfetch720 (youtube).mp3", "manifest.csv"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(skip)("a job due at once that the queue runs before its send has even returned is still claimed and done", async () => {
    const user = await fx.signUp("EagerQueue", "ultimate");
    // a queue whose worker takes the job the instant it is sent (a busy PostgreSQL poll can)
    const eager = createScheduledJobs({ db: db.db, queue: { send: async (_q, data, opts) => (await runQueueJob(opts.id, data.jobId), opts.id), cancel: async () => undefined } });
    const row = await eager.create({ userId: user.userId, plan: "ultimate" }, { urls: GOOD, format: "mp3-128" });
    expect(row.status).toBe("done");
    expect(row.fileKey).toBe(`jobs/${row.id}`);
  }, 60_000);

  it.skipIf(skip)("a job whose every link fails is failed and keeps no file", async () => {
    const user = await fx.signUp("AllFail", "ultimate");
    const { id } = (await (await call("POST", "/", user.cookie, { urls: [PRIVATE, "https://www.youtube.com/watch?v=vidfetchPrv&t=1"], format: "mp4-360" })).json()) as JobBody;
    await runJob(id);
    const job = await getJob(id, user.cookie);
    expect(job).toMatchObject({ status: "failed", error: "None of the links could be downloaded.", downloadUrl: null });
    expect(job.items.map((i) => i.error)).toEqual(["This video is private.", "This video is private."]);
    expect(await storage.open(`jobs/${id}`)).toBeNull();
  }, 60_000);

  it.skipIf(skip)("other plans are refused bulk and playlist jobs; too many links or a malformed one are refused at once", async () => {
    const pro = await fx.signUp("ProBulkJob", "pro");
    for (const body of [{ urls: GOOD, format: "mp4-360" }, { url: PLAYLIST_URL, format: "mp4-360" }]) {
      const refused = await call("POST", "/", pro.cookie, body);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: "plan.required", message: "Bulk downloads come with the Ultimate plan. Change your plan to use them." } });
    }
    // a free user hears of the plan before any count of links
    const free = await fx.signUp("FreeBulkJob");
    const many = Array.from({ length: 51 }, (_, i) => `https://www.youtube.com/watch?v=vidfetch${String(i).padStart(3, "0")}`);
    expect(((await (await call("POST", "/", free.cookie, { urls: many, format: "mp4-360" })).json()) as { error: { code: string } }).error.code).toBe("plan.required");

    const user = await fx.signUp("ManyJob", "ultimate");
    const tooMany = await call("POST", "/", user.cookie, { urls: many, format: "mp4-360" });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toEqual({ error: { code: "job.too_many_links", message: "A bulk job takes at most 50 links; this one has 51." } });
    const malformed = await call("POST", "/", user.cookie, { urls: [GOOD[0], "not a link"], format: "mp4-360" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: "job.invalid_link", message: expect.stringMatching(/^Link 2: /) } });
    const none = await call("POST", "/", user.cookie, { urls: [], format: "mp4-360" });
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("job.invalid_link");
    // one shape or the other, not both
    expect((await call("POST", "/", user.cookie, { url: GOOD[0], urls: GOOD, format: "mp4-360" })).status).toBe(400);
  });
});
