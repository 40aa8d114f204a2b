/**
 * Egress on the mock platform (issue 32 §3, §4, §7): two operator proxies (an HTTP CONNECT one
 * dialling from 127.0.0.2, a SOCKS5 one from 127.0.0.3, both asking for credentials), so the
 * platform sees which egress each request left by. Downloads through either come out byte for
 * byte and really pass through it; media URLs bound to the address that resolved them (`ip=`)
 * are fetched from that address; a bot wall rests its egress and the resolve moves on; a
 * download refused on one egress after a fresh resolve finishes on the other; the resolve cache
 * keeps each egress's answers apart; a download pinned to one egress (the canary's check of each
 * egress) leaves by it alone. In each mode a download stays within its request budget and the
 * platform's status says what happened.
 */
import { readFile, stat } from "node:fs/promises";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ClientOutcome } from "#app/modules/platform-health/health-counts.server.ts";
import { healthRecorder, memoryPlatformHealth, readPlatformHealth } from "#app/modules/platform-health/health-store.server.ts";
import { canaryClientsOf, canaryTable, runCanary } from "#app/modules/platform-health/run-canary.server.ts";
import { createEngine, type Engine, type EngineDeps, type ResolveOutcome } from "#engine/index.ts";
import { createEgressPool, parseOutboundProxies, type EgressPool } from "#engine/outbound/egress.ts";
import { createOutbound } from "#engine/outbound/outbound-fetch.ts";
import { startMockPlatform, type MockPlatform, type YouTubeModes } from "#tests/mocks/platform.ts";
import { startConnectProxy, startSocksProxy, type FakeProxy } from "#tests/mocks/proxies.ts";
import { downloadRequestBudget, silentLogger, sourceContext, startDownloadServer } from "./helpers.ts";

const URL_OF = (id: string) => `https://www.youtube.com/watch?v=${id}`;
const VIDEOS = ["vidfetchAll", "vidfetch720", "vidfetchCap", "vidfetchSub"];
/** the M4A format is itag 140 sent as it is: the bytes can be compared with the mock's file */
const AUDIO_ITAG = "140";
const PIECE = 16 * 1024;
const noDns = async (host: string): Promise<never> => {
  throw Object.assign(new Error(`no DNS in this test (${host})`), { code: "ENOTFOUND" });
};

describe("egress: proxies and affinity on the mock platform", () => {
  let platform: MockPlatform;
  let server: http.Server;
  let origin = "";
  let connectProxy: FakeProxy;
  let socksProxy: FakeProxy;
  const engines: Engine[] = [];
  let current: Engine | undefined;
  let clock = 0;

  beforeAll(async () => {
    platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
    ({ server, origin } = await startDownloadServer(() => current));
    connectProxy = await startConnectProxy({ auth: { username: "op", password: "c0nnect" }, localAddress: "127.0.0.2" });
    socksProxy = await startSocksProxy({ auth: { username: "op", password: "s0cks" }, localAddress: "127.0.0.3" });
  });
  afterEach(() => platform.setYouTubeModes({}));
  afterAll(async () => {
    for (const engine of engines) await engine.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await connectProxy?.close();
    await socksProxy?.close();
    await platform?.close();
  });

  /** the address each egress's requests reach the platform from */
  const addressOf = (egress: string) => (egress === "proxy-1" ? connectProxy.localAddress : socksProxy.localAddress);
  const proxyOf = (egress: string) => (egress === "proxy-1" ? connectProxy : socksProxy);

  /** A fresh engine (its own resolve cache) whose ways out are the two proxies, resting for 60 s on the test's clock. */
  async function engineWithProxies(
    opts: { onResolved?: (o: ResolveOutcome) => void; onDownloadFinished?: EngineDeps["onDownloadFinished"]; cacheSeconds?: number } = {},
  ): Promise<{ engine: Engine; egress: EgressPool }> {
    const egress = createEgressPool({ proxies: parseOutboundProxies(`${connectProxy.url}, ${socksProxy.url}`), resolve: noDns, now: () => clock, restMs: 60_000, logger: silentLogger });
    const { config } = sourceContext({ hostMap: platform.hostMap, clients: ["VISIONOS", "ANDROID"] });
    current = await createEngine(
      { ...config, ytdlpPath: "off", publicUrl: origin, limits: { ...config.limits, chunkBytes: PIECE, resolveCacheSeconds: opts.cacheSeconds ?? 60 } },
      { egress, refusals: { pieceBytes: PIECE }, onResolved: opts.onResolved, onDownloadFinished: opts.onDownloadFinished },
    );
    engines.push(current);
    return { engine: current, egress };
  }

  /** Downloads the M4A of `video`; what the platform saw meanwhile for it, checked against one download's budget. */
  async function downloadAudio(engine: Engine, video: string) {
    const from = platform.youtubeRequests().length;
    // without tags the file is the platform's own bytes
    const created = await engine.createDownload({ url: URL_OF(video), format: "m4a", caller: { kind: "anonymous" }, ip: "127.0.0.1", options: { tags: false } });
    const res = await fetch(created.downloadUrl);
    const body = Buffer.from(await res.arrayBuffer());
    const seen = platform.youtubeRequests().slice(from).filter((r) => r.videoId === video);
    // a two-client ladder, which a bot wall may move to the next egress once
    const budget = downloadRequestBudget({ ladder: 2, egressMoves: 1, inputBytes: [(await stat(platform.media.audioM4a)).size], smallestRequestBytes: PIECE });
    expect(seen.filter((r) => r.kind === "player").length).toBeLessThanOrEqual(budget.players);
    expect(seen.filter((r) => r.kind === "media").length).toBeLessThanOrEqual(budget.media);
    return {
      status: res.status,
      body,
      players: seen.filter((r) => r.kind === "player"),
      media: seen.filter((r) => r.kind === "media" && r.itag === AUDIO_ITAG),
    };
  }

  /** a mock video whose link the pool sends to `egress` */
  const videoOn = (pool: EgressPool, egress: string) => {
    const video = VIDEOS.find((v) => pool.choose(URL_OF(v)).id === egress);
    if (!video) throw new Error(`no mock video goes to ${egress}`);
    return video;
  };

  for (const egressId of ["proxy-1", "proxy-2"]) {
    it(`a download through ${egressId === "proxy-1" ? "the HTTP CONNECT" : "the SOCKS5"} proxy comes out byte for byte, every request through it`, async () => {
      const outcomes: ResolveOutcome[] = [];
      const { engine, egress } = await engineWithProxies({ onResolved: (o) => outcomes.push(o) });
      const video = videoOn(egress, egressId);
      const proxy = proxyOf(egressId);
      const tunnelsBefore = proxy.tunnels().length;
      const expected = await readFile(platform.media.audioM4a);
      const got = await downloadAudio(engine, video);
      expect(got.status).toBe(200);
      expect(got.body.equals(expected)).toBe(true);
      // the platform heard the player requests and every media range from the proxy's address
      expect(got.players.length).toBeGreaterThan(0);
      expect(new Set([...got.players, ...got.media].map((r) => r.from))).toEqual(new Set([addressOf(egressId)]));
      // and the proxy carried them: its tunnels brought down at least the file
      const tunnels = proxy.tunnels().slice(tunnelsBefore);
      expect(tunnels.length).toBeGreaterThan(0);
      expect(tunnels.reduce((n, t) => n + t.down, 0)).toBeGreaterThan(expected.length);
      expect(proxy.authFailures()).toBe(0);
      // the resolve names the egress it used, for the health counts
      expect(outcomes.map((o) => [o.ok, o.egress])).toEqual([[true, egressId]]);
    });
  }

  it("ip=-bound media URLs: a link resolved on one egress downloads from the same egress; from another they are refused", async () => {
    platform.setYouTubeModes({ mediaIpBound: ["VISIONOS", "ANDROID"] });
    const { engine, egress } = await engineWithProxies();
    for (const egressId of ["proxy-1", "proxy-2"]) {
      const video = videoOn(egress, egressId);
      const expected = await readFile(platform.media.audioM4a);
      const got = await downloadAudio(engine, video);
      expect(got.status).toBe(200);
      expect(got.body.equals(expected)).toBe(true);
      expect(got.media.every((r) => r.from === addressOf(egressId))).toBe(true);
    }
    expect(platform.mediaRefusals()).toEqual([]);

    // the control: a URL handed to one egress is refused to the other
    const door = createOutbound({ egress, hostMap: platform.hostMap, allowPrivate: false, timeoutMs: 5_000, logger: silentLogger, retries: 0, resolve: noDns });
    try {
      const player = await door.fetch("https://youtubei.googleapis.com/youtubei/v1/player", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ videoId: "vidfetch720", context: { client: { clientName: "VISIONOS" } } }),
        egress: { id: "proxy-1" },
      });
      const answer = (await player.json()) as { streamingData: { adaptiveFormats: Array<{ itag: number; url: string }> } };
      const url = answer.streamingData.adaptiveFormats.find((f) => String(f.itag) === AUDIO_ITAG)!.url;
      expect(new URL(url).searchParams.get("ip")).toBe(connectProxy.localAddress);
      const same = await door.open(url, { egress: { id: "proxy-1" }, headers: { range: "bytes=0-99" } });
      same.body.resume();
      expect(same.status).toBe(206);
      const other = await door.open(url, { egress: { id: "proxy-2" }, headers: { range: "bytes=0-99" } });
      other.body.resume();
      expect(other.status).toBe(403);
      expect(platform.mediaRefusals().map((r) => r.why)).toEqual(["egress"]);
    } finally {
      door.close();
    }
  });

  it("a bot wall on one egress rests it: the resolve moves to the next egress, and so do later ones until the rest is over", async () => {
    const outcomes: ResolveOutcome[] = [];
    const { engine, egress } = await engineWithProxies({ onResolved: (o) => outcomes.push(o) });
    const [walled, healthy] = ["proxy-1", "proxy-2"];
    platform.setYouTubeModes({ botWallFrom: [addressOf(walled!)] });
    const video = videoOn(egress, walled!);
    const expected = await readFile(platform.media.audioM4a);
    const got = await downloadAudio(engine, video);
    expect(got.status).toBe(200);
    expect(got.body.equals(expected)).toBe(true);
    // every client met the wall on the sick egress; the next egress answered
    expect(got.players.map((r) => `${r.client}@${r.from}`)).toEqual([`VISIONOS@${addressOf(walled!)}`, `ANDROID@${addressOf(walled!)}`, `VISIONOS@${addressOf(healthy!)}`]);
    expect(got.media.every((r) => r.from === addressOf(healthy!))).toBe(true);
    expect(outcomes.map((o) => `${o.egress}:${o.code ?? "ok"}`)).toEqual([`${walled}:video.bot_check`, `${healthy}:ok`]);
    expect(egress.resting(walled!)).toBe(true);

    // another link that would go to the resting egress goes straight to the healthy one
    const other = VIDEOS.find((v) => v !== video && egress.choose(URL_OF(v)).id === healthy && createEgressPool({ proxies: parseOutboundProxies(`${connectProxy.url} ${socksProxy.url}`), resolve: noDns }).choose(URL_OF(v)).id === walled);
    expect(other).toBeDefined();
    const from = platform.youtubeRequests().length;
    await engine.resolve(URL_OF(other!), { kind: "anonymous" });
    expect(platform.youtubeRequests().slice(from).every((r) => r.from === addressOf(healthy!))).toBe(true);

    // after the rest the egress is asked again
    clock += 60_001;
    expect(egress.resting(walled!)).toBe(false);
    expect(egress.choose(URL_OF(video)).id).toBe(walled);
  });

  it("a download refused on one egress after a fresh resolve finishes on the other egress (the egress rung), byte for byte", async () => {
    const { engine, egress } = await engineWithProxies();
    const refused = "proxy-2";
    const other = "proxy-1";
    platform.setYouTubeModes({ mediaRefusedFrom: [addressOf(refused)] });
    const video = videoOn(egress, refused);
    const expected = await readFile(platform.media.audioM4a);
    const got = await downloadAudio(engine, video);
    expect(got.status).toBe(200);
    expect(got.body.equals(expected)).toBe(true);
    // resolve, re-resolve (rung 2) on the refused egress, then the same first client on the other egress (rung 3)
    expect(got.players.map((r) => `${r.client}@${r.from}`)).toEqual([`VISIONOS@${addressOf(refused)}`, `VISIONOS@${addressOf(refused)}`, `VISIONOS@${addressOf(other)}`]);
    const refusals = platform.mediaRefusals();
    expect(refusals.every((r) => r.why === "refused")).toBe(true);
    expect(refusals.length).toBeLessThanOrEqual(3);
    expect(egress.resting(refused)).toBe(true);
  });

  const BOT_WALL_DOWN = "YouTube downloads are not working right now; we're on it. YouTube is asking our server to prove it is not a bot.";
  const REFUSED_DOWN = "YouTube downloads are not working right now; we're on it. YouTube is refusing to send its videos to our server.";
  it.each<[string, (one: string, other: string) => YouTubeModes, { each: number | string; status: string; detail: string | null }]>([
    ["a bot wall on one egress: the downloads complete on the other, and the status says ok", (one) => ({ botWallFrom: [one] }), { each: 200, status: "ok", detail: null }],
    [
      "a bot wall on both: each download fails with its words, and the status says down, naming it",
      (one, other) => ({ botWallFrom: [one, other] }),
      { each: "video.bot_check", status: "down", detail: BOT_WALL_DOWN },
    ],
    ["media refused on one egress: the downloads finish on the other, and the status says ok", (one) => ({ mediaRefusedFrom: [one] }), { each: 200, status: "ok", detail: null }],
    [
      "media refused on both: each download fails, and the status says down, naming the refusal",
      (one, other) => ({ mediaRefusedFrom: [one, other] }),
      { each: 502, status: "down", detail: REFUSED_DOWN },
    ],
  ])("%s", async (_name, modes, expected) => {
    const store = memoryPlatformHealth();
    const health = healthRecorder(store, { logger: silentLogger });
    const { engine } = await engineWithProxies({ onResolved: (o) => health.resolved(o), onDownloadFinished: (e) => health.downloadFinished(e) });
    platform.setYouTubeModes(modes(addressOf("proxy-1"), addressOf("proxy-2")));
    // the HTTP status of each download, or the code its link was refused with
    const each: Array<number | string | undefined> = [];
    for (const video of VIDEOS) each.push((await downloadAudio(engine, video).catch((err: { code?: string }) => ({ status: err.code }))).status);
    expect(each).toEqual(VIDEOS.map(() => expected.each));
    const [youtube] = await readPlatformHealth(store, ["youtube"]);
    expect({ status: youtube!.status, detail: youtube!.detail }).toEqual({ status: expected.status, detail: expected.detail });
  });

  it("behind a proxy the SSRF guard still holds: a private destination is refused and no proxy is asked for it", async () => {
    const egress = createEgressPool({
      proxies: parseOutboundProxies(`${connectProxy.url} ${socksProxy.url}`),
      // a public-looking name that resolves to a private address
      resolve: async (host) => (host === "files.internal.test" ? [{ address: "10.0.0.5", family: 4 }] : noDns(host)),
    });
    const { config } = sourceContext({ hostMap: platform.hostMap });
    current = await createEngine({ ...config, ytdlpPath: "off", publicUrl: origin }, { egress });
    engines.push(current);
    const tunnels = () => connectProxy.tunnels().length + socksProxy.tunnels().length;
    const before = tunnels();
    const direct = new URL(platform.origin);
    for (const link of [`http://${direct.host}/files/sample-360p.mp4`, "http://files.internal.test/sample.mp4", "http://169.254.169.254/latest/meta-data/x.mp4"]) {
      await expect(current.resolve(link, { kind: "anonymous" }), link).rejects.toMatchObject({ code: "link.blocked_address" });
    }
    expect(tunnels()).toBe(before);
  });

  it("a download pinned to one egress (the canary's check) resolves afresh there and fetches every byte from it, whatever the link's own egress", async () => {
    const { engine, egress } = await engineWithProxies();
    expect(engine.egresses).toEqual(["proxy-1", "proxy-2"]);
    const video = videoOn(egress, "proxy-1");
    // a cached answer on the link's own egress is not what a pinned check takes
    await engine.resolve(URL_OF(video), { kind: "anonymous" });
    for (const pinned of ["proxy-2", "proxy-1"]) {
      const from = platform.youtubeRequests().length;
      const opened = await engine.openDownload({ url: URL_OF(video), format: "m4a", caller: { kind: "anonymous" }, ip: "canary", egress: pinned, options: { tags: false } });
      const body = Buffer.concat(await opened.stream.toArray());
      expect(body.equals(await readFile(platform.media.audioM4a))).toBe(true);
      expect(opened.egress).toBe(pinned);
      const seen = platform.youtubeRequests().slice(from);
      expect(seen.filter((r) => r.kind === "player").length).toBeGreaterThan(0);
      expect(new Set(seen.map((r) => r.from))).toEqual(new Set([addressOf(pinned)]));
    }
    await expect(engine.openDownload({ url: URL_OF(video), format: "m4a", caller: { kind: "anonymous" }, ip: "canary", egress: "direct" })).rejects.toMatchObject({ code: "request.invalid" });
  });

  it("the canary checks each egress alone besides each client: a bot wall on one proxy shows on its row and in its counts, and rests it", async () => {
    const { engine, egress } = await engineWithProxies();
    const [walled, healthy] = ["proxy-1", "proxy-2"];
    // and VISIONOS walled everywhere: its own check fails on the link's egress, which that does not rest
    platform.setYouTubeModes({ botWallFrom: [addressOf(walled!)], botWall: ["VISIONOS"] });
    const video = videoOn(egress, healthy!);
    const added: ClientOutcome[] = [];
    const from = platform.youtubeRequests().length;
    const results = await runCanary([URL_OF(video)], {
      openDownload: (input) => engine.openDownload(input),
      store: memoryPlatformHealth(),
      counts: { add: (o) => added.push(o) },
      clientsOf: canaryClientsOf(["VISIONOS", "ANDROID"], false),
      egresses: engine.egresses,
      logger: silentLogger,
    });
    const rows = canaryTable(results)
      .split("\n")
      .slice(1)
      .map((l) => l.split(/\s{2,}/).filter((c) => !/^\d+\.\d s$/.test(c)));
    expect(rows).toEqual([
      [URL_OF(video), "youtube", "all", healthy, "ok", "-"],
      [URL_OF(video), "youtube", "VISIONOS", healthy, "FAILED", "video.bot_check"],
      [URL_OF(video), "youtube", "ANDROID", healthy, "ok", "-"],
      [URL_OF(video), "youtube", "all", `${walled} (alone)`, "FAILED", "video.bot_check"],
      [URL_OF(video), "youtube", "all", `${healthy} (alone)`, "ok", "-"],
    ]);
    // the counts per egress come from the canary: the whole ladder ("all") on each egress, beside each client on the link's
    expect(added.map((o) => [o.client, o.egress, o.source, o.code ?? "ok"])).toEqual([
      ["VISIONOS", healthy, "canary", "video.bot_check"],
      ["ANDROID", healthy, "canary", "ok"],
      ["all", walled, "canary", "video.bot_check"],
      ["all", healthy, "canary", "ok"],
    ]);
    // the walled egress's check asked every client there and nowhere else
    const players = platform.youtubeRequests().slice(from).filter((r) => r.kind === "player");
    expect(players.filter((r) => r.from === addressOf(walled!)).map((r) => r.client)).toEqual(["VISIONOS", "ANDROID"]);
    expect(egress.resting(walled!)).toBe(true);
    expect(egress.resting(healthy!)).toBe(false);
    // each client's check ran on the link's egress, named on its row
    expect(players.filter((r) => r.from === addressOf(healthy!)).map((r) => r.client)).toEqual(["VISIONOS", "ANDROID", "VISIONOS", "ANDROID", "VISIONOS", "ANDROID"]);
  });

  it("the resolve cache keeps each egress's answers apart", async () => {
    const outcomes: ResolveOutcome[] = [];
    const { engine, egress } = await engineWithProxies({ onResolved: (o) => outcomes.push(o) });
    const video = "vidfetchCap";
    const first = egress.choose(URL_OF(video)).id;
    const second = first === "proxy-1" ? "proxy-2" : "proxy-1";
    await engine.resolve(URL_OF(video), { kind: "anonymous" });
    await engine.resolve(URL_OF(video), { kind: "anonymous" });
    // the second resolve was the first one's cached answer
    expect(outcomes.map((o) => o.egress)).toEqual([first]);
    // with the first egress resting, its cached answer is not used: the link is resolved on the other
    egress.rest(first, "test");
    await engine.resolve(URL_OF(video), { kind: "anonymous" });
    await engine.resolve(URL_OF(video), { kind: "anonymous" });
    expect(outcomes.map((o) => o.egress)).toEqual([first, second]);
    // rested, the first egress finds its own answer again
    clock += 60_001;
    const from = platform.youtubeRequests().length;
    await engine.resolve(URL_OF(video), { kind: "anonymous" });
    expect(outcomes.map((o) => o.egress)).toEqual([first, second]);
    expect(platform.youtubeRequests().length).toBe(from);
  });
});
