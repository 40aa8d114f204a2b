import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import pino from "pino";
import { openTestPglite, type DatabaseHandle } from "#db/client.ts";
import { blogGeneratedArticles } from "#db/schema/blog.ts";
import { FRESHNESS_INTERVAL_MS, startBlogFreshness } from "#app/modules/blog/freshness.server.ts";

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await openTestPglite();
});
afterEach(async () => {
  await handle.close();
});

describe("blog freshness check", () => {
  it("runs every 3 hours", () => {
    expect(FRESHNESS_INTERVAL_MS).toBe(10_800_000);
  });

  it("generates the first 40 at start and 15 more when the calendar day changes", async () => {
    let now = new Date("2026-11-21T23:00:00Z");
    const stop = startBlogFreshness({ db: handle.db, logger: pino({ level: "silent" }), intervalMs: 40, now: () => now });
    try {
      await vi.waitFor(async () => expect(await handle.db.$count(blogGeneratedArticles)).toBe(40), { timeout: 20_000 });
      now = new Date("2026-11-22T01:00:00Z");
      await vi.waitFor(async () => expect(await handle.db.$count(blogGeneratedArticles)).toBe(55), { timeout: 20_000 });
    } finally {
      stop();
    }
  });
});
