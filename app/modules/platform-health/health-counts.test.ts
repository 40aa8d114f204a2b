import { describe, expect, it } from "vitest";
import pino from "pino";
import { platformHealthCounts } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase } from "#tests/support/test-db.ts";
import { createClientOrder, failingClients, rankClients } from "./client-order.server.ts";
import { COUNTS_WINDOW_HOURS, createHealthCounts, readCanaryStandings, readHealthTable, type ClientOutcome } from "./health-counts.server.ts";
import { healthRecorder, memoryPlatformHealth } from "./health-store.server.ts";

const quiet = pino({ level: "silent" });
const HOUR = 3600_000;
const NOW = Date.UTC(2026, 10, 27, 12, 30);

describe.each(testDatabases)("platform health counts on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);

  async function setup() {
    const handle = await open();
    let t = NOW;
    const counts = createHealthCounts({ db: handle.db, logger: quiet, now: () => t, flushMs: 3_600_000 });
    const add = (o: Partial<ClientOutcome> & Pick<ClientOutcome, "client" | "ok">) =>
      counts.add({ platform: "youtube", egress: "direct", source: "resolve", code: null, at: t, ...o });
    return { db: handle.db, counts, add, setNow: (at: number) => (t = at) };
  }

  it.skipIf(skip)("counts per platform, client, egress and failure type, with the last success and failure", async () => {
    const { db, counts, add } = await setup();
    add({ client: "VISIONOS", ok: true, at: NOW - 2 * HOUR });
    add({ client: "VISIONOS", ok: true, at: NOW - 60_000, source: "download" });
    add({ client: "VISIONOS", ok: false, code: "video.bot_check", at: NOW - HOUR });
    add({ client: "VISIONOS", ok: false, code: "video.bot_check", at: NOW - 5 * 60_000, source: "canary" });
    add({ client: "VISIONOS", ok: false, code: "upstream.refused", at: NOW - 10 * 60_000, source: "download" });
    add({ client: "VISIONOS", egress: "proxy-1", ok: true });
    add({ client: "ANDROID", ok: false, code: "client.needs_token", at: NOW - 3 * HOUR });
    add({ platform: "vimeo", client: "ytdlp", ok: true });
    // nothing is written before the flush
    expect(await readHealthTable(db, NOW)).toEqual([]);
    await counts.flush();
    // a second flush adds to the rows already written
    add({ client: "VISIONOS", ok: false, code: "video.bot_check", at: NOW - 30 * 60_000 });
    await counts.close();
    expect(await readHealthTable(db, NOW)).toEqual([
      {
        platform: "youtube",
        client: "VISIONOS",
        egress: "direct",
        successes: 2,
        failures: [
          { type: "video.bot_check", count: 3 },
          { type: "upstream.refused", count: 1 },
        ],
        lastSuccessAt: new Date(NOW - 60_000).toISOString(),
        lastFailureAt: new Date(NOW - 5 * 60_000).toISOString(),
      },
      { platform: "youtube", client: "ANDROID", egress: "direct", successes: 0, failures: [{ type: "client.needs_token", count: 1 }], lastSuccessAt: null, lastFailureAt: new Date(NOW - 3 * HOUR).toISOString() },
      { platform: "vimeo", client: "ytdlp", egress: "direct", successes: 1, failures: [], lastSuccessAt: new Date(NOW).toISOString(), lastFailureAt: null },
      { platform: "youtube", client: "VISIONOS", egress: "proxy-1", successes: 1, failures: [], lastSuccessAt: new Date(NOW).toISOString(), lastFailureAt: null },
    ]);
  });

  it.skipIf(skip)(`keeps a window of ${COUNTS_WINDOW_HOURS} hours: older hours are left out of the table and deleted`, async () => {
    const { db, counts, add, setNow } = await setup();
    add({ client: "VISIONOS", ok: false, code: "video.bot_check", at: NOW - (COUNTS_WINDOW_HOURS + 2) * HOUR });
    add({ client: "VISIONOS", ok: true, at: NOW - HOUR });
    await counts.flush();
    expect((await db.select().from(platformHealthCounts)).map((r) => r.outcome).sort()).toEqual(["ok"]);
    // a day later the last row is outside the window too, and goes with the next write
    setNow(NOW + (COUNTS_WINDOW_HOURS + 1) * HOUR);
    expect(await readHealthTable(db, NOW + (COUNTS_WINDOW_HOURS + 1) * HOUR)).toEqual([]);
    add({ client: "ANDROID", ok: true, at: NOW + (COUNTS_WINDOW_HOURS + 1) * HOUR });
    await counts.close();
    expect((await db.select().from(platformHealthCounts)).map((r) => r.client)).toEqual(["ANDROID"]);
  });

  it.skipIf(skip)("a client whose latest canary failed moves down until a canary of it passes again; real downloads do not move it", async () => {
    const { db, counts, add, setNow } = await setup();
    const order = createClientOrder({ standings: () => readCanaryStandings(db, NOW + 2 * HOUR), logger: quiet, refreshMs: 3_600_000 });
    const configured = ["VISIONOS", "ANDROID", "ytdlp"];
    add({ client: "VISIONOS", ok: true, source: "canary", at: NOW - HOUR });
    add({ client: "VISIONOS", ok: false, code: "video.bot_check", source: "canary", at: NOW - 60_000 });
    add({ client: "ANDROID", ok: false, code: "upstream.refused", source: "download" });
    add({ client: "ANDROID", ok: true, source: "canary" });
    await counts.flush();
    await order.refresh();
    expect(order.failing()).toEqual(["VISIONOS"]);
    expect(order.order(configured)).toEqual(["ANDROID", "ytdlp", "VISIONOS"]);
    // passes again: back in its configured place
    setNow(NOW + HOUR);
    add({ client: "VISIONOS", ok: true, source: "canary" });
    await counts.flush();
    await order.refresh();
    expect(order.order(configured)).toEqual(configured);
    order.stop();
  });
});

describe("client order", () => {
  it("keeps the configured order within the passing and the failing clients, whatever case the configuration uses", () => {
    expect(rankClients(["visionos", "ANDROID", "WEB_EMBEDDED", "ytdlp"], new Set(["VISIONOS", "WEB_EMBEDDED"]))).toEqual(["ANDROID", "ytdlp", "visionos", "WEB_EMBEDDED"]);
    expect(rankClients(["VISIONOS", "ANDROID"], new Set())).toEqual(["VISIONOS", "ANDROID"]);
  });

  it("reads a failure as failing only when it is later than the client's last canary success, only on YouTube, and never the checks of one egress (client `all`)", () => {
    const standings = [
      { platform: "youtube", client: "all", lastOkAt: null, lastFailureAt: 5 },
      { platform: "youtube", client: "VISIONOS", lastOkAt: 2, lastFailureAt: 1 },
      { platform: "youtube", client: "ANDROID", lastOkAt: 1, lastFailureAt: 2 },
      { platform: "youtube", client: "IOS", lastOkAt: null, lastFailureAt: 5 },
      { platform: "vimeo", client: "ytdlp", lastOkAt: null, lastFailureAt: 5 },
    ];
    expect([...failingClients(standings)].sort()).toEqual(["ANDROID", "IOS"]);
  });

  it("keeps the last standings when they cannot be read", async () => {
    let broken = false;
    const warned: unknown[] = [];
    const order = createClientOrder({
      standings: async () => {
        if (broken) throw new Error("database down");
        return [{ platform: "youtube", client: "VISIONOS", lastOkAt: null, lastFailureAt: 1 }];
      },
      logger: { warn: (o: unknown) => void warned.push(o), info: () => undefined },
      refreshMs: 3_600_000,
    });
    await order.refresh();
    broken = true;
    await order.refresh();
    expect(order.order(["VISIONOS", "ANDROID"])).toEqual(["ANDROID", "VISIONOS"]);
    expect(warned).toHaveLength(1);
    order.stop();
  });
});

describe("the health recorder's counts", () => {
  it("counts each ladder rung and each finished file per client and egress; leaves out the canary's own, a video's state and a visitor who left", () => {
    const added: ClientOutcome[] = [];
    const recorder = healthRecorder(memoryPlatformHealth(), { logger: quiet, ignoreClient: "canary", now: () => NOW, counts: { add: (o) => void added.push(o) } });
    recorder.resolved({
      platform: "youtube",
      ok: true,
      code: null,
      client: "1.2.3.4",
      egress: "proxy-1",
      clients: [
        { client: "VISIONOS", ok: false, code: "video.not_found" },
        { client: "ANDROID", ok: true, code: null },
      ],
    });
    recorder.resolved({ platform: "youtube", ok: true, code: null, client: "canary", clients: [{ client: "VISIONOS", ok: true, code: null }] });
    recorder.resolved({ platform: "vimeo", ok: false, code: "video.private", client: undefined, clients: [{ client: "ytdlp", ok: false, code: "video.private" }] });
    recorder.downloadFinished({ platform: "youtube", complete: false, error: "upstream.refused", client: "ANDROID", egress: "proxy-1" });
    recorder.downloadFinished({ platform: "youtube", complete: true, client: "ANDROID" });
    recorder.downloadFinished({ platform: "youtube", complete: false, client: "ANDROID" });
    recorder.downloadFinished({ platform: "youtube", complete: false, error: "upstream.refused", client: "ANDROID", ip: "canary" });
    expect(added.map((o) => [o.platform, o.client, o.egress, o.source, o.ok, o.code])).toEqual([
      ["youtube", "VISIONOS", "proxy-1", "resolve", false, "video.not_found"],
      ["youtube", "ANDROID", "proxy-1", "resolve", true, null],
      ["youtube", "ANDROID", "proxy-1", "download", false, "upstream.refused"],
      ["youtube", "ANDROID", "direct", "download", true, null],
    ]);
  });
});
