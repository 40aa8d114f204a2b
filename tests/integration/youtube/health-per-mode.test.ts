/**
 * Issue 32 §5 and §7 on the mock platform: in each of YouTube's failure modes, what the visitors'
 * downloads and the canary did is what `GET /api/v1/status` reports (ok, degraded or down, with a
 * true detail); the counts per client and egress take in single downloads, a job's file and each
 * file of a ZIP; a failed download's progress names its cause; and a client failing its canary
 * checks is asked after the others until it passes again.
 */
import express from "express";
import { stat } from "node:fs/promises";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClientOrder, type ClientOrder } from "#app/modules/platform-health/client-order.server.ts";
import { createHealthCounts, readHealthTable, type HealthCounts } from "#app/modules/platform-health/health-counts.server.ts";
import { healthRecorder, memoryPlatformHealth, type PlatformHealthStore } from "#app/modules/platform-health/health-store.server.ts";
import { CANARY_CLIENT, canaryClientsOf, canaryTable } from "#app/modules/platform-health/run-canary.server.ts";
import { openTestPglite, type DatabaseHandle } from "#db/client.ts";
import { ERRORS } from "#engine/errors.ts";
import { createEngine, type DownloadProgress, type Engine } from "#engine/index.ts";
import { canaryJob } from "#jobs/canary.ts";
import { createApiRouter } from "#server/api/router.ts";
import { createStatusRouter } from "#server/api/status.ts";
import type { YouTubeModes } from "#tests/mocks/platform.ts";
import { startFakePotProvider } from "#tests/mocks/pot-provider.ts";
import { downloadRequestBudget, mockPlatformSuite, silentLogger, sourceContext } from "./helpers.ts";

const URL_OF = (id: string) => `https://www.youtube.com/watch?v=${id}`;
const VIDEOS = ["vidfetch720", "vidfetchAll", "vidfetchCap"];
const anonymous = { kind: "anonymous" } as const;
/** the token gate's "about 1 MB" scaled down to the small sample media (as refusal-recovery.test.ts does) */
const PIECE = 16 * 1024;
const CLIENTS = ["VISIONOS", "ANDROID"];

interface Status {
  id: string;
  status: string;
  lastSuccessAt: string | null;
  detail: string | null;
}

describe("platform health in each mode of the mock platform", () => {
  const suite = mockPlatformSuite();
  let database: DatabaseHandle;
  let statusServer: http.Server;
  let statusOrigin = "";
  // fresh for each test
  let store: PlatformHealthStore = memoryPlatformHealth();
  let counts: HealthCounts;
  let order: ClientOrder;

  beforeAll(async () => {
    database = await openTestPglite();
    const app = express();
    app.use("/api/v1", createStatusRouter({ store: { record: (p, o) => store.record(p, o), read: (p) => store.read(p) }, ytdlp: () => false }));
    statusServer = app.listen(0, "127.0.0.1");
    await new Promise<void>((r) => statusServer.once("listening", () => r()));
    statusOrigin = `http://127.0.0.1:${(statusServer.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    store = memoryPlatformHealth();
    order?.stop();
    await counts?.close();
  });
  afterAll(async () => {
    await new Promise<void>((r) => (statusServer ? statusServer.close(() => r()) : r()));
    await database?.close();
  });

  /**
   * An engine wired as server/services.ts wires it: every resolve and finished file feeds the
   * record and the counts, the client order follows the canary (`clients` and a PO-token provider
   * for the provider's mode).
   */
  async function engine(opts: { clients?: string[]; potProviderUrl?: string } = {}): Promise<Engine> {
    const { config } = sourceContext({ hostMap: suite.platform.hostMap, clients: opts.clients ?? CLIENTS });
    // each test counts from an empty table
    await database.db.execute("delete from platform_health_counts");
    counts = createHealthCounts({ db: database.db, logger: silentLogger, flushMs: 3_600_000 });
    order = createClientOrder({ standings: () => counts.canaryStandings(), logger: silentLogger, refreshMs: 3_600_000 });
    const health = healthRecorder(store, { logger: silentLogger, ignoreClient: CANARY_CLIENT, counts });
    return suite.use(
      await createEngine(
        {
          ...config,
          youtube: { ...config.youtube, potProviderUrl: opts.potProviderUrl },
          ytdlpPath: "off",
          publicUrl: suite.origin,
          limits: { ...config.limits, resolveCacheSeconds: 60 },
        },
        {
          onResolved: (o) => health.resolved(o),
          onDownloadFinished: (e) => health.downloadFinished(e),
          clientOrder: (configured) => order.order(configured),
          refusals: { pieceBytes: PIECE },
        },
      ),
    );
  }

  async function youtubeStatus(): Promise<Status> {
    const res = await fetch(`${statusOrigin}/api/v1/status`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { platforms: Status[] };
    return body.platforms.find((p) => p.id === "youtube")!;
  }

  /**
   * Downloads the M4A of each video as a visitor does (link, then the file whole); the HTTP status
   * and the last progress event of each. Each stays within one download's budget (the two clients
   * and the embedded player an age gate adds), whatever the mode.
   */
  async function downloadEach(e: Engine) {
    const outcomes: Array<{ status: number; progress: DownloadProgress | null; code?: string }> = [];
    const budget = downloadRequestBudget({
      ladder: CLIENTS.length + 1,
      inputBytes: [(await stat(suite.platform.media.audioM4a)).size],
      smallestRequestBytes: Math.min(sourceContext({ hostMap: suite.platform.hostMap }).config.limits.chunkBytes, PIECE),
    });
    for (const id of VIDEOS) {
      const from = suite.platform.youtubeRequests().length;
      const withinBudget = () => {
        const seen = suite.platform.youtubeRequests().slice(from).filter((r) => r.videoId === id);
        expect(seen.filter((r) => r.kind === "player").length).toBeLessThanOrEqual(budget.players);
        expect(seen.filter((r) => r.kind === "media").length).toBeLessThanOrEqual(budget.media);
      };
      let created;
      try {
        created = await e.createDownload({ url: URL_OF(id), format: "m4a", caller: anonymous, ip: "127.0.0.1" });
      } catch (err) {
        withinBudget();
        outcomes.push({ status: 0, progress: null, code: (err as { code?: string }).code });
        continue;
      }
      let progress: DownloadProgress | null = null;
      const stop = await e.subscribeProgress(created.id, (p) => (progress = p));
      const res = await fetch(created.downloadUrl);
      await res.arrayBuffer();
      await expect.poll(() => progress?.state).toMatch(/^(done|failed)$/);
      stop();
      withinBudget();
      outcomes.push({ status: res.status, progress });
    }
    return outcomes;
  }

  const ok = { id: "youtube", status: "ok", detail: null, lastSuccessAt: expect.any(String) };

  describe.each<[string, YouTubeModes]>([
    ["VISIONOS answers SABR-only", { sabrOnly: ["VISIONOS"] }],
    ["a bot wall on VISIONOS", { botWall: ["VISIONOS"] }],
    ["the made-for-kids ERROR on VISIONOS", { kidsError: ["VISIONOS"] }],
    ["an age gate on both apps (the embedded player plays it)", { ageGate: ["VISIONOS", "ANDROID"] }],
    ["VISIONOS's media URLs need a token for long ranges", { mediaNeedsToken: ["VISIONOS"], mediaTokenFreeBytes: PIECE }],
    ["VISIONOS's media URLs expire mid-download", { mediaExpires: { clients: ["VISIONOS"], atByte: 40_000 } }],
    ["VISIONOS's media URLs are refused", { mediaRefused: ["VISIONOS"] }],
  ])("%s: the downloads complete through the ladder", (_name, modes) => {
    it("and the status says ok, with the time it last worked", async () => {
      const e = await engine();
      suite.platform.setYouTubeModes(modes);
      const before = Date.now();
      const outcomes = await downloadEach(e);
      expect(outcomes.map((o) => [o.status, o.progress?.state])).toEqual(VIDEOS.map(() => [200, "done"]));
      const status = await youtubeStatus();
      expect(status).toEqual(ok);
      expect(Date.parse(status.lastSuccessAt!)).toBeGreaterThanOrEqual(before);
    });
  });

  it("caption tracks that need a token on VISIONOS: the transcripts come through ANDROID's tracks and the status says ok", async () => {
    const e = await engine();
    suite.platform.setYouTubeModes({ captionsNeedToken: ["VISIONOS"] });
    const created = await e.createDownload({ url: URL_OF("vidfetchCap"), format: "transcript", caller: anonymous, ip: "127.0.0.1" });
    const res = await fetch(created.downloadUrl);
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBeGreaterThan(0);
    expect(await youtubeStatus()).toEqual(ok);
    // VISIONOS's answer had open video and audio (a success) and the file is its media's (another); ANDROID, asked for its tracks, gave formats that need a token
    await counts.flush();
    const rows = await readHealthTable(database.db);
    expect(rows.map((r) => [r.client, r.successes, r.failures])).toEqual([
      ["ANDROID", 0, [{ type: "client.needs_token", count: 1 }]],
      ["VISIONOS", 2, []],
    ]);
  });

  it("a PO-token provider for a token-gated web client asked first: the downloads complete on it, and the status and counts say so", async () => {
    const provider = await startFakePotProvider();
    try {
      const e = await engine({ clients: ["MWEB", "VISIONOS"], potProviderUrl: provider.url });
      const outcomes = await downloadEach(e);
      expect(outcomes.map((o) => [o.status, o.progress?.state])).toEqual(VIDEOS.map(() => [200, "done"]));
      expect(provider.calls()).toEqual(VIDEOS);
      expect(await youtubeStatus()).toEqual(ok);
      await counts.flush();
      // each video: MWEB's rung (its answer, token and all, ended the ladder) and its file
      expect((await readHealthTable(database.db)).map((r) => [r.client, r.successes, r.failures])).toEqual([["MWEB", 2 * VIDEOS.length, []]]);
    } finally {
      await provider.close();
    }
  });

  it("a bot wall on every client: the downloads fail with its words and the status says down, naming the bot wall", async () => {
    const e = await engine();
    suite.platform.setYouTubeModes({ botWall: CLIENTS });
    const outcomes = await downloadEach(e);
    expect(outcomes.map((o) => o.code)).toEqual(VIDEOS.map(() => "video.bot_check"));
    expect(await youtubeStatus()).toEqual({
      id: "youtube",
      status: "down",
      lastSuccessAt: null,
      detail: "YouTube downloads are not working right now; we're on it. YouTube is asking our server to prove it is not a bot.",
    });
    await counts.flush();
    const rows = await readHealthTable(database.db);
    expect(rows.map((r) => [r.client, r.egress, r.successes, r.failures])).toEqual([
      ["ANDROID", "direct", 0, [{ type: "video.bot_check", count: 3 }]],
      ["VISIONOS", "direct", 0, [{ type: "video.bot_check", count: 3 }]],
    ]);
  });

  it("every client's media refused: the resolves work, each download fails naming the refusal in its progress, and the status says down", async () => {
    const e = await engine();
    suite.platform.setYouTubeModes({ mediaRefused: CLIENTS });
    const outcomes = await downloadEach(e);
    for (const o of outcomes) {
      expect(o.status).toBe(502);
      expect(o.progress).toMatchObject({ state: "failed", error: { code: "upstream.refused", message: ERRORS["upstream.refused"].message } });
    }
    expect(await youtubeStatus()).toEqual({
      id: "youtube",
      status: "down",
      lastSuccessAt: expect.any(String),
      detail: "YouTube downloads are not working right now; we're on it. YouTube is refusing to send its videos to our server.",
    });
    await counts.flush();
    const visionos = (await readHealthTable(database.db)).find((r) => r.client === "VISIONOS");
    expect(visionos?.failures).toEqual([{ type: "upstream.refused", count: 3 }]);

    // what the downloader reads: the progress stream's failed event carries the cause
    const app = express();
    app.use("/api/v1", createApiRouter({ engine: e, logger: silentLogger }));
    const api = app.listen(0, "127.0.0.1");
    await new Promise<void>((r) => api.once("listening", () => r()));
    try {
      const created = await e.createDownload({ url: URL_OF("vidfetch720"), format: "m4a", caller: anonymous, ip: "127.0.0.1" });
      const sse = await fetch(`http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v1/downloads/${created.id}/progress`);
      await (await fetch(created.downloadUrl)).arrayBuffer();
      const events = (await sse.text()).split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
      expect(events.at(-1)).toEqual({ bytes: 0, total: expect.any(Number), state: "failed", error: { code: "upstream.refused", message: ERRORS["upstream.refused"].message } });
    } finally {
      await new Promise<void>((r) => api.close(() => r()));
    }
  });

  it("an age gate the embedded player may not pass: the video's own state, so the downloads fail with its words and the status stays ok", async () => {
    const e = await engine();
    suite.platform.setYouTubeModes({ ageGate: CLIENTS, notEmbeddable: true });
    const outcomes = await downloadEach(e);
    expect(outcomes.map((o) => o.code)).toEqual(VIDEOS.map(() => "video.age_restricted"));
    expect(await youtubeStatus()).toEqual({ id: "youtube", status: "ok", lastSuccessAt: null, detail: null });
  });

  it("a job's file and each file of a ZIP are counted per client, and keep no visitor history", async () => {
    const e = await engine();
    const job = await e.openDownload({ url: URL_OF("vidfetch720"), format: "m4a", caller: anonymous, ip: "127.0.0.1" });
    expect(job.client).toBe("VISIONOS");
    expect(job.egress).toBe("direct");
    for await (const _ of job.stream) void _;
    const zip = await e.openBulkDownload({ urls: [URL_OF("vidfetch720"), URL_OF("vidfetchAll")], format: "m4a", caller: { kind: "premium", plan: "ultimate", userId: "u1" }, ip: "127.0.0.1" });
    for await (const _ of zip.stream) void _;
    await zip.done;
    await expect.poll(async () => (await store.read("youtube")).outcomes.filter((o) => o.source === "download").length).toBe(3);
    await counts.flush();
    const [visionos] = await readHealthTable(database.db);
    expect(visionos).toMatchObject({ platform: "youtube", client: "VISIONOS", egress: "direct", failures: [] });
    // three files, and the ladder's rung of each fresh resolve (the job's; the ZIP's vidfetchAll: its vidfetch720 came from the resolve cache)
    expect(visionos!.successes).toBe(5);
  });

  it("a client failing its canary checks is asked after the others; once it passes again it is back in its place; the platform stays ok", async () => {
    const e = await engine();
    const job = (id: string) =>
      canaryJob({
        links: [URL_OF("vidfetch720")],
        intervalMinutes: 30,
        canary: { openDownload: (input) => e.openDownload(input), store, counts, clientsOf: canaryClientsOf(CLIENTS, false) },
        logger: silentLogger,
        afterRun: async () => {
          await counts.flush();
          await order.refresh();
        },
      }).handler({ id, data: null, retryCount: 0, signal: new AbortController().signal });
    /** the clients a visitor's fresh resolve asks, in order */
    const asked = async (id: string) => {
      const from = suite.platform.youtubeRequests().length;
      await e.resolve(URL_OF(id), anonymous);
      return suite.platform.youtubeRequests().slice(from).filter((r) => r.kind === "player" && r.videoId === id).map((r) => r.client);
    };

    suite.platform.setYouTubeModes({ botWall: ["VISIONOS"] });
    // the ladder check passes (ANDROID), VISIONOS alone fails, ANDROID alone passes
    expect(await job("canary-1")).toEqual({ passed: 2, failed: [{ link: URL_OF("vidfetch720"), client: "VISIONOS", code: "video.bot_check" }] });
    expect(order.failing()).toEqual(["VISIONOS"]);
    // ANDROID first now (its formats need a token, so the ladder still goes on to VISIONOS after it)
    expect(await asked("vidfetchAll")).toEqual(["ANDROID", "VISIONOS"]);
    expect(await youtubeStatus()).toEqual(ok);

    suite.platform.setYouTubeModes({});
    expect(await job("canary-2")).toEqual({ passed: 3, failed: [] });
    expect(order.failing()).toEqual([]);
    expect(await asked("vidfetchCap")).toEqual(["VISIONOS"]);
  });

  it("the canary's table has a row for the ladder and one per client (and none per egress: `direct` is the only one)", async () => {
    const e = await engine();
    expect(e.egresses).toEqual(["direct"]);
    suite.platform.setYouTubeModes({ mediaRefused: ["ANDROID"] });
    const { runCanary } = await import("#app/modules/platform-health/run-canary.server.ts");
    const results = await runCanary([URL_OF("vidfetch720")], {
      openDownload: (input) => e.openDownload(input),
      store,
      counts,
      clientsOf: canaryClientsOf([...CLIENTS, "ytdlp"], false),
      egresses: e.egresses,
      logger: silentLogger,
    });
    const lines = canaryTable(results).split("\n");
    expect(lines[0]).toMatch(/^link\s+platform\s+client\s+egress\s+result\s+time\s+failure$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/).filter((c) => !/^\d+\.\d s$/.test(c)))).toEqual([
      [URL_OF("vidfetch720"), "youtube", "all", "direct", "ok", "-"],
      [URL_OF("vidfetch720"), "youtube", "VISIONOS", "direct", "ok", "-"],
      [URL_OF("vidfetch720"), "youtube", "ANDROID", "direct", "FAILED", "upstream.refused"],
    ]);
  });
});
