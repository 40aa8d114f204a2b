/**
 * Issue 31 §5, an operator's Retry on /admin, on the real job queue: a failed download goes back
 * to scheduled with a new queue job that pg-boss holds under the id the row names, runs at once
 * through the engine and ends done, its file stored and mailed; the retry is in the admin log.
 * An owner who no longer holds the plan's right gets the handler's own refusal again. PGlite,
 * and PostgreSQL when TEST_DATABASE_URL is set.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { retryJob } from "#app/modules/admin/admin-actions.server.ts";
import { createScheduledJobs, SCHEDULED_DOWNLOAD_QUEUE } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { adminActions, downloadJobs } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase } from "#tests/support/test-db.ts";
import { ALL_FORMATS_URL, closePlatform, startPlanFixture } from "../plans/plan-fixture.ts";
import { startJobQueue } from "./job-queue-fixture.ts";

afterAll(() => closePlatform());

describe.each(testDatabases)("an admin's retry of a failed job on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);

  it.skipIf(skip)("runs it again on the queue to the end, logged; an owner without the right is refused again", async () => {
    const db = await open();
    const fixture = await startPlanFixture(db);
    const queue = await startJobQueue(db, fixture, { publicUrl: fixture.origin, fileLink: () => `${fixture.origin}/file` });
    const { runner, storage, mails } = queue;
    try {
      const jobs = createScheduledJobs({ db: db.db, queue: runner });
      const ops = await fixture.signUp("Ops");
      const admin = { id: ops.userId, email: "ops@example.com" };
      const pro = await fixture.signUp("Pro", "pro");
      const free = await fixture.signUp("Lapsed");
      // failed an hour ago (the platform was down), its queue job long finished
      const failed = (id: string, userId: string) => ({
        id,
        userId,
        kind: "scheduled" as const,
        format: "mp3-128",
        items: [{ url: ALL_FORMATS_URL, title: null, status: "failed" as const, bytes: null, error: "The platform did not answer." }],
        status: "failed" as const,
        runAt: new Date(Date.now() - 3600_000),
        queueJobId: randomBytes(8).toString("hex"),
        error: "The platform did not answer.",
        startedAt: new Date(Date.now() - 3590_000),
        finishedAt: new Date(Date.now() - 3580_000),
      });
      await db.db.insert(downloadJobs).values([failed("retry-pro", pro.userId), failed("retry-free", free.userId)]);
      const rowOf = async (id: string) => (await db.db.select().from(downloadJobs).where(eq(downloadJobs.id, id)))[0]!;

      expect(await retryJob(db.db, jobs, admin, "retry-pro")).toMatchObject({ ok: true });
      const queued = await rowOf("retry-pro");
      // pg-boss holds the job under the id the row names
      const queueJob = await runner.getJob<{ jobId: string }>(SCHEDULED_DOWNLOAD_QUEUE, queued.queueJobId!);
      expect(queueJob?.data).toEqual({ jobId: "retry-pro" });

      await expect.poll(async () => (await rowOf("retry-pro")).status, { timeout: 30_000, interval: 200 }).toBe("done");
      const done = await rowOf("retry-pro");
      expect(done).toMatchObject({ error: null, fileKey: "jobs/retry-pro" });
      expect(done.items[0]).toMatchObject({ url: ALL_FORMATS_URL, status: "done", error: null });
      expect(done.startedAt!.getTime()).toBeGreaterThanOrEqual(queued.runAt.getTime());
      const file = await storage.open("jobs/retry-pro");
      expect(file?.bytes).toBe(done.fileBytes);
      file?.stream.destroy();
      expect(mails.map((m) => m.to)).toEqual([expect.stringMatching(/^pro-/)]);
      // done now: a second Retry is refused
      expect(await retryJob(db.db, jobs, admin, "retry-pro")).toEqual({ ok: false, message: "Only a failed job can be run again; this one is done.", status: 409 });

      // the lapsed owner's job runs and fails with the handler's own words
      expect(await retryJob(db.db, jobs, admin, "retry-free")).toMatchObject({ ok: true });
      await expect.poll(async () => (await rowOf("retry-free")).error, { timeout: 30_000, interval: 200 }).toBe("Scheduled downloads are no longer part of your plan, so this job did not run.");
      expect((await rowOf("retry-free")).status).toBe("failed");

      expect((await db.db.select().from(adminActions).orderBy(adminActions.createdAt)).map((a) => [a.adminUserId, a.action, a.target])).toEqual([
        [ops.userId, "job.retry", "retry-pro"],
        [ops.userId, "job.retry", "retry-free"],
      ]);
    } finally {
      await queue.close();
      await fixture.close();
    }
  }, 90_000);
});
