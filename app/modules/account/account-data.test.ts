import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { action as dashboardAction } from "#app/routes/dashboard.tsx";
import { loader as exportLoader } from "#app/routes/dashboard-export.ts";
import { action as signupAction } from "#app/routes/signup.tsx";
import type { BillingServices } from "#app/modules/billing/billing-services.server.ts";
import { recordDownload } from "#app/modules/history/record-download.server.ts";
import { deleteJobFilesOf } from "#app/modules/jobs/job-files.server.ts";
import { blogComments, downloadHistory, newsletterSubscribers, sessions, subscriptions, users } from "#db/schema/index.ts";
import { downloadJobs } from "#db/schema/jobs.ts";
import { apiKeyUsage, apiKeys } from "#db/schema/api-keys.ts";
import { whiteLabels } from "#db/schema/white-label.ts";
import { createJobStorage, type JobStorage } from "#jobs/storage/job-storage.ts";
import { cookieHeaderFrom, formPostFromSite, insertActiveSubscription, openConfirmationLink, testAccounts, TEST_PUBLIC_URL } from "#tests/support/accounts.ts";
import { callRoute, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import type { AccountServices } from "./account-services.server.ts";

/**
 * The terms promise deletion from the dashboard and the privacy policy a copy of one's data:
 * both, through the routes a browser uses.
 */
const logger = pino({ level: "silent" });
const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical-engine" };

const post = formPostFromSite;

/** A Stripe that records cancellations, or refuses them. */
function fakeBilling(opts: { fail?: boolean } = {}) {
  const canceled: string[] = [];
  const billing = {
    stripe: {
      subscriptions: {
        cancel: async (id: string) => {
          if (opts.fail) throw Object.assign(new Error("Stripe is down"), { code: "api_connection_error" });
          canceled.push(id);
          return { id, status: "canceled" };
        },
      },
    },
  } as unknown as BillingServices;
  return { billing, canceled };
}

describe.each(testDatabases)("your data on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;
  let accounts: AccountServices & { outbox: Array<{ to: string; subject: string; text: string }> };
  let storage: JobStorage;
  let dataDir: string | undefined;
  /** job storage's deletions, each with how many job rows still existed at that moment */
  let removedFiles: Array<{ key: string; rowsLeft: number }>;
  /** job storage refuses to delete (a bucket that is down) */
  let failDeletes = false;
  const jobs = () => ({
    deleteFilesOf: (userId: string) =>
      deleteJobFilesOf(
        {
          db: handle!.db,
          logger,
          deleteFile: async (key) => {
            if (failDeletes) throw new Error("storage is down");
            removedFiles.push({ key, rowsLeft: await handle!.db.$count(downloadJobs) });
            await storage.delete(key);
          },
        },
        userId,
      ),
  });
  const ctx = (billing: BillingServices | null = null) => ({ db: handle!.db, logger, clientIp: "203.0.113.7", accounts, billing, jobs: jobs(), config: { PUBLIC_URL: TEST_PUBLIC_URL } });

  /** whether job storage still holds `key` (the opened stream is closed at once) */
  async function stored(key: string): Promise<boolean> {
    const file = await storage.open(key);
    file?.stream.destroy();
    return file !== null;
  }

  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
    failDeletes = false;
  });

  async function signedInAda(): Promise<{ cookie: string; userId: string }> {
    handle = await open();
    accounts = testAccounts(handle.db);
    await callRoute(signupAction as never, post("/signup", { ...ada, returnTo: "/dashboard" }), ctx());
    const cookie = cookieHeaderFrom(await openConfirmationLink(accounts, ada.email));
    const [user] = await handle.db.select().from(users);
    // what the account has gathered: a download, a comment written with its email
    await recordDownload(handle.db, { id: "dl_1", caller: { kind: "free", userId: user!.id }, format: "mp4-720", title: "A lecture", bytes: 1234, complete: true });
    await handle.db.insert(blogComments).values({ articleSlug: "some-article", name: "Ada", email: "ADA@example.com", content: "Thanks!", status: "approved", ipHash: "h", visitorId: "v" });
    await handle.db.insert(newsletterSubscribers).values({ email: "ada@example.com", createdAt: new Date("2026-10-01T00:00:00Z"), confirmedAt: new Date("2026-10-02T00:00:00Z") });
    // two scheduled downloads: one done, its file in job storage, and one still waiting
    dataDir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-account-jobs-"));
    storage = createJobStorage({ dataDir, maxBytes: 1024 * 1024, logger });
    removedFiles = [];
    await storage.put("jobs/job-done", Readable.from([Buffer.from("the lecture's bytes")]), { contentType: "video/mp4", filename: "A lecture.mp4" });
    const item = (status: "done" | "pending") => ({ url: "https://youtu.be/dQw4w9WgXcQ", title: status === "done" ? "A lecture" : null, status, bytes: status === "done" ? 19 : null, error: null });
    await handle.db.insert(downloadJobs).values([
      {
        id: "job-done",
        userId: user!.id,
        kind: "scheduled",
        format: "mp4-720",
        items: [item("done")],
        status: "done",
        runAt: new Date("2026-11-20T08:00:00Z"),
        queueJobId: "queue-job-1",
        bytesDone: 19,
        fileKey: "jobs/job-done",
        filename: "A lecture.mp4",
        fileBytes: 19,
        expiresAt: new Date("2099-01-01T00:00:00Z"),
        createdAt: new Date("2026-11-19T08:00:00Z"),
        finishedAt: new Date("2026-11-20T08:00:05Z"),
      },
      { id: "job-waiting", userId: user!.id, kind: "scheduled", format: "mp3-128", items: [item("pending")], status: "scheduled", runAt: new Date("2099-01-01T00:00:00Z"), queueJobId: "queue-job-2", createdAt: new Date("2026-11-21T08:00:00Z") },
    ]);
    // an API key with a day of use
    await handle.db.insert(apiKeys).values({ id: "key-1", userId: user!.id, name: "Build server", prefix: "vf_abcdefgh", hash: "f".repeat(64), createdAt: new Date("2026-11-22T08:00:00Z") });
    await handle.db.insert(apiKeyUsage).values({ keyId: "key-1", day: "2026-11-23", requests: 7 });
    await handle.db.insert(whiteLabels).values({ userId: user!.id, senderName: "Ada Media", updatedAt: new Date("2026-11-24T08:00:00Z") });
    return { cookie, userId: user!.id };
  }

  it.skipIf(skip)("exports everything about the account as a JSON file, only to its owner", async () => {
    const { cookie } = await signedInAda();
    const res = (await callRoute(exportLoader as never, new Request(`${TEST_PUBLIC_URL}/dashboard/export`, { headers: { cookie } }), ctx())) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="my-account-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const data = (await res.json()) as Record<string, unknown> & { account: { email: string }; downloadHistory: Array<{ title: string }>; blogComments: Array<{ content: string }>; sessions: unknown[] };
    expect(data.account).toMatchObject({ name: ada.name, email: ada.email, emailConfirmed: true });
    expect(data.downloadHistory.map((h) => h.title)).toEqual(["A lecture"]);
    expect(data.blogComments.map((c) => c.content)).toEqual(["Thanks!"]);
    // API keys by name and first characters, with their use, never the stored hash
    expect(data.apiKeys).toEqual([
      { id: "key-1", name: "Build server", prefix: "vf_abcdefgh", createdAt: "2026-11-22T08:00:00.000Z", lastUsedAt: null, revokedAt: null, requestsPerDay: [{ day: "2026-11-23", requests: 7 }] },
    ]);
    expect(JSON.stringify(data)).not.toContain("f".repeat(64));
    expect(data.whiteLabel).toEqual({ senderName: "Ada Media", updatedAt: "2026-11-24T08:00:00.000Z" });
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.newsletter).toEqual({ subscribed: true, enteredAt: "2026-10-01T00:00:00.000Z", confirmedAt: "2026-10-02T00:00:00.000Z" });
    // the scheduled downloads, oldest first, by their job id only (no queue job id, no storage key)
    expect(data.scheduledDownloads).toEqual([
      {
        id: "job-done",
        url: "https://youtu.be/dQw4w9WgXcQ",
        links: ["https://youtu.be/dQw4w9WgXcQ"],
        kind: "scheduled",
        name: null,
        format: "mp4-720",
        runAt: "2026-11-20T08:00:00.000Z",
        status: "done",
        createdAt: "2026-11-19T08:00:00.000Z",
        finishedAt: "2026-11-20T08:00:05.000Z",
        filename: "A lecture.mp4",
        bytes: 19,
        error: null,
      },
      {
        id: "job-waiting",
        url: "https://youtu.be/dQw4w9WgXcQ",
        links: ["https://youtu.be/dQw4w9WgXcQ"],
        kind: "scheduled",
        name: null,
        format: "mp3-128",
        runAt: "2099-01-01T00:00:00.000Z",
        status: "scheduled",
        createdAt: "2026-11-21T08:00:00.000Z",
        finishedAt: null,
        filename: null,
        bytes: null,
        error: null,
      },
    ]);
    expect(JSON.stringify(data)).not.toMatch(/queue-job|jobs\/job-done/);
    // no password hash, no other account's data
    expect(JSON.stringify(data)).not.toMatch(/password|\$argon|scrypt/i);
    const anonymous = (await callRoute(exportLoader as never, new Request(`${TEST_PUBLIC_URL}/dashboard/export`), ctx())) as Response;
    expect(anonymous.status).toBe(401);
  });

  it.skipIf(skip)("a wrong password deletes nothing", async () => {
    const { cookie } = await signedInAda();
    const res = await unwrap(await callRoute(dashboardAction as never, post("/dashboard?tab=settings", { intent: "delete-account", password: "not-the-password" }, cookie), ctx()));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ ok: false, message: "That password is not right, so your account was not deleted.", fields: ["password"] });
    expect(await handle!.db.$count(users)).toBe(1);
    expect(removedFiles).toEqual([]);
    expect(await stored("jobs/job-done")).toBe(true);
  });

  it.skipIf(skip)("deletes the account: subscription canceled at Stripe, every session, the history and the scheduled downloads with their files gone, comments anonymised", async () => {
    const { cookie, userId } = await signedInAda();
    await insertActiveSubscription(handle!.db, userId, "pro");
    const { billing, canceled } = fakeBilling();
    const res = (await callRoute(dashboardAction as never, post("/dashboard?tab=settings", { intent: "delete-account", password: ada.password }, cookie), ctx(billing))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?notice=account-deleted");
    expect(res.headers.get("clear-site-data")).toBe('"cache"');
    expect(res.headers.getSetCookie().some((c) => /max-age=0|expires=Thu, 01 Jan 1970/i.test(c))).toBe(true);
    expect(canceled).toEqual([`sub_${userId}`]);
    for (const table of [users, sessions, downloadHistory, subscriptions, downloadJobs]) expect(await handle!.db.$count(table)).toBe(0);
    // the stored file went from job storage while its row still existed
    expect(removedFiles).toEqual([{ key: "jobs/job-done", rowsLeft: 2 }]);
    expect(await stored("jobs/job-done")).toBe(false);
    const [comment] = await handle!.db.select().from(blogComments);
    expect(comment).toMatchObject({ name: "Deleted user", email: "", ipHash: null, visitorId: null, content: "Thanks!" });
    // the newsletter is a consent of its own, ended by its own link (the privacy policy says so)
    expect(await handle!.db.$count(newsletterSubscribers)).toBe(1);
    // the old session cookie opens nothing any more
    const after = (await callRoute(exportLoader as never, new Request(`${TEST_PUBLIC_URL}/dashboard/export`, { headers: { cookie } }), ctx())) as Response;
    expect(after.status).toBe(401);
  });

  it.skipIf(skip)("leaves other accounts' jobs alone, and a file storage cannot remove now to its sweep", async () => {
    const { cookie } = await signedInAda();
    await handle!.db.insert(users).values({ id: "user-grace", name: "Grace Hopper", email: "grace@example.com", emailVerified: true });
    await storage.put("jobs/job-grace", Readable.from([Buffer.from("grace's file")]), { contentType: "video/mp4", filename: "Compilers.mp4" });
    await handle!.db.insert(downloadJobs).values({
      id: "job-grace",
      userId: "user-grace",
      kind: "scheduled",
      format: "mp4-720",
      items: [{ url: "https://youtu.be/dQw4w9WgXcQ", title: "Compilers", status: "done", bytes: 12, error: null }],
      status: "done",
      runAt: new Date("2026-11-20T08:00:00Z"),
      fileKey: "jobs/job-grace",
      filename: "Compilers.mp4",
      fileBytes: 12,
      expiresAt: new Date("2099-01-01T00:00:00Z"),
    });
    failDeletes = true;
    const res = (await callRoute(dashboardAction as never, post("/dashboard?tab=settings", { intent: "delete-account", password: ada.password }, cookie), ctx())) as Response;
    expect(res.status).toBe(302);
    expect((await handle!.db.select({ id: users.id }).from(users)).map((u) => u.id)).toEqual(["user-grace"]);
    expect((await handle!.db.select({ id: downloadJobs.id, fileKey: downloadJobs.fileKey }).from(downloadJobs))).toEqual([{ id: "job-grace", fileKey: "jobs/job-grace" }]);
    expect(await stored("jobs/job-grace")).toBe(true);
    // left to job storage's sweep, which removes whatever it holds past a cutoff, with or without a row
    expect(await stored("jobs/job-done")).toBe(true);
    await storage.deleteOlderThan(new Date(Date.now() + 60_000));
    expect(await stored("jobs/job-done")).toBe(false);
  });

  it.skipIf(skip)("keeps the account when Stripe cannot cancel its subscription", async () => {
    const { cookie, userId } = await signedInAda();
    await insertActiveSubscription(handle!.db, userId, "pro");
    const res = await unwrap(await callRoute(dashboardAction as never, post("/dashboard?tab=settings", { intent: "delete-account", password: ada.password }, cookie), ctx(fakeBilling({ fail: true }).billing)));
    expect(res.status).toBe(502);
    expect(await handle!.db.$count(users)).toBe(1);
    expect(await handle!.db.$count(subscriptions)).toBe(1);
    // the scheduled downloads and their files stay with the account
    expect(await handle!.db.$count(downloadJobs)).toBe(2);
    expect(await stored("jobs/job-done")).toBe(true);
  });
});
