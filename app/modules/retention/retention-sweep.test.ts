import pino from "pino";
import { describe, expect, it } from "vitest";
import { contactMessages, downloadHistory, downloadJobs, newsletterSubscribers, platformRequests, users } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { monthsBefore } from "./periods.ts";
import { startRetentionSweep, sweepExpiredRows } from "./retention-sweep.server.ts";

const logger = pino({ level: "silent" });
const now = new Date(Date.UTC(2026, 10, 26, 12));
const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);

describe("monthsBefore", () => {
  it("counts calendar months back in UTC", () => {
    expect(monthsBefore(now, 12).toISOString()).toBe("2025-11-26T12:00:00.000Z");
    expect(monthsBefore(now, 24).toISOString()).toBe("2024-11-26T12:00:00.000Z");
  });
});

/** The privacy policy's periods: contact messages 12 months, platform requests 24, history 90 days, unconfirmed newsletter addresses 7 days. */
describe.each(testDatabases)("retention sweep on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)("deletes rows past their period and keeps the rest", async () => {
    handle = await open();
    const { db } = handle;
    await db.insert(contactMessages).values([
      { name: "Old", email: "old@example.com", message: "kept too long", createdAt: daysAgo(367) },
      { name: "Recent", email: "recent@example.com", message: "still answered", createdAt: daysAgo(300) },
    ]);
    await db.insert(platformRequests).values([
      { platformName: "Old site", createdAt: daysAgo(733) },
      { platformName: "Newer site", createdAt: daysAgo(400) },
    ]);
    await db.insert(users).values({ id: "u-r", name: "R", email: "r@example.com" });
    await db.insert(downloadHistory).values([
      { id: "dl_old", userId: "u-r", title: "Old", format: "mp3-128", status: "done", createdAt: daysAgo(91) },
      { id: "dl_new", userId: "u-r", title: "New", format: "mp3-128", status: "done", createdAt: daysAgo(10) },
    ]);
    await db.insert(newsletterSubscribers).values([
      { email: "unconfirmed@example.com", createdAt: daysAgo(8), confirmSentAt: daysAgo(8) },
      { email: "pending@example.com", createdAt: daysAgo(2), confirmSentAt: daysAgo(2) },
      { email: "reader@example.com", createdAt: daysAgo(400), confirmSentAt: daysAgo(400), confirmedAt: daysAgo(399) },
    ]);

    const job = (id: string, finishedAt: Date | null, fileKey: string | null = null) => ({
      id, userId: "u-r", kind: "scheduled" as const, format: "mp3-128", items: [], status: finishedAt ? ("done" as const) : ("scheduled" as const), runAt: daysAgo(100), finishedAt, fileKey,
    });
    await db.insert(downloadJobs).values([job("job_old", daysAgo(91)), job("job_recent", daysAgo(30)), job("job_waiting", null), job("job_old_file", daysAgo(91), "jobs/job_old_file")]);

    await sweepExpiredRows(db, logger, now);

    expect((await db.select().from(contactMessages)).map((r) => r.name)).toEqual(["Recent"]);
    expect((await db.select().from(platformRequests)).map((r) => r.platformName)).toEqual(["Newer site"]);
    expect((await db.select().from(downloadHistory)).map((r) => r.id)).toEqual(["dl_new"]);
    expect((await db.select().from(newsletterSubscribers)).map((r) => r.email).sort()).toEqual(["pending@example.com", "reader@example.com"]);
    // a job's record goes 90 days after it ran; one still holding a file waits for the file cleanup first
    expect((await db.select().from(downloadJobs)).map((r) => r.id).sort()).toEqual(["job_old_file", "job_recent", "job_waiting"]);
  });

  it.skipIf(skip)("sweeps at start-up without waiting for the first interval", async () => {
    handle = await open();
    const { db } = handle;
    await db.insert(contactMessages).values({ name: "Old", email: "old@example.com", message: "x", createdAt: daysAgo(400) });
    const stop = startRetentionSweep({ db, logger, now: () => now });
    try {
      await expect.poll(async () => (await db.select().from(contactMessages)).length).toBe(0);
    } finally {
      stop();
    }
  });
});
