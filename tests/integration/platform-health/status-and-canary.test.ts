/**
 * Issue 32 §5 on the mock platform: real resolves and the canary job feed the platform health
 * record, `GET /api/v1/status` reports it, and `npm run canary` prints its table.
 */
import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import express from "express";
import type http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { healthRecorder, memoryPlatformHealth, type PlatformHealthStore } from "#app/modules/platform-health/health-store.server.ts";
import { CANARY_CLIENT } from "#app/modules/platform-health/run-canary.server.ts";
import { createEngine, type Engine } from "#engine/index.ts";
import { canaryJob } from "#jobs/canary.ts";
import { createStatusRouter } from "#server/api/status.ts";
import { startMockPlatform, type MockPlatform } from "#tests/mocks/platform.ts";
import { startConnectProxy, startSocksProxy } from "#tests/mocks/proxies.ts";
import { silentLogger, sourceContext } from "../youtube/helpers.ts";

const execFileAsync = promisify(execFile);
const anonymous = { kind: "anonymous" } as const;

describe("platform health on the mock platform", () => {
  let platform: MockPlatform;
  let engine: Engine;
  let store: PlatformHealthStore = memoryPlatformHealth();
  let server: http.Server;
  let origin = "";
  let ytdlp = false;

  beforeAll(async () => {
    platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
    const { config } = sourceContext({ hostMap: platform.hostMap });
    // wired as server/services.ts wires it: resolves and downloads feed the record, the canary's resolves excepted
    const health = () => healthRecorder(store, { logger: silentLogger, ignoreClient: CANARY_CLIENT });
    const app = express();
    app.get("/api/v1/dl/:token", (req, res) => void engine.handleDownload(req.params.token, req, res));
    // each test gets a fresh record (afterEach): the router reads whichever is current
    app.use("/api/v1", createStatusRouter({ store: { record: (p, o) => store.record(p, o), read: (p) => store.read(p) }, ytdlp: () => ytdlp }));
    server = app.listen(0, "127.0.0.1");
    await new Promise<void>((r) => server.once("listening", () => r()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    engine = await createEngine(
      { ...config, publicUrl: origin, limits: { ...config.limits, resolveCacheSeconds: 0 } },
      { onResolved: (o) => health().resolved(o), onDownloadFinished: (e) => health().downloadFinished(e) },
    );
  });
  afterEach(() => {
    store = memoryPlatformHealth();
    ytdlp = false;
    platform.setYouTubeModes({});
  });
  afterAll(async () => {
    await engine?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await platform?.close();
  });

  async function status() {
    const res = await fetch(`${origin}/api/v1/status`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
    return (await res.json()) as { platforms: Array<{ id: string; status: string; lastSuccessAt: string | null; detail: string | null }> };
  }

  it("answers YouTube alone without yt-dlp, every platform with it, all ok before anything happened", async () => {
    expect(await status()).toEqual({ platforms: [{ id: "youtube", status: "ok", lastSuccessAt: null, detail: null }] });
    ytdlp = true;
    const all = await status();
    expect(all.platforms.map((p) => p.id)).toEqual(["youtube", "facebook", "instagram", "tiktok", "twitter", "vimeo", "dailymotion", "twitch"]);
    expect(all.platforms.every((p) => p.status === "ok")).toBe(true);
  });

  it("a resolve that works sets lastSuccessAt; a private video changes nothing", async () => {
    const before = Date.now();
    await engine.resolve("https://www.youtube.com/watch?v=vidfetchAll", anonymous);
    await expect(engine.resolve("https://www.youtube.com/watch?v=vidfetchPrv", anonymous)).rejects.toMatchObject({ code: "video.private" });
    const [youtube] = (await status()).platforms;
    expect(youtube!.status).toBe("ok");
    expect(Date.parse(youtube!.lastSuccessAt!)).toBeGreaterThanOrEqual(before);
    expect((await store.read("youtube")).outcomes.map((o) => [o.ok, o.code])).toEqual([
      [true, null],
      [false, "video.private"],
    ]);
  });

  it("a download delivered whole is recorded as the platform's success; one the client leaves is not", async () => {
    const created = await engine.createDownload({ url: "https://youtu.be/vidfetch720", format: "mp4-360", caller: anonymous, ip: "127.0.0.1" });
    const res = await fetch(created.downloadUrl);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const left = await engine.createDownload({ url: "https://www.youtube.com/watch?v=vidfetchAll", format: "mp4-720", caller: anonymous, ip: "127.0.0.1" });
    const controller = new AbortController();
    const partial = await fetch(left.downloadUrl, { signal: controller.signal });
    await partial.body!.getReader().read();
    controller.abort();
    let state = "";
    const stop = await engine.subscribeProgress(left.id, (p) => (state = p.state));
    await expect.poll(() => state).toBe("aborted");
    stop();
    // each link resolved twice (when made, when opened: no resolve cache here), one file delivered
    expect((await store.read("youtube")).outcomes.map((o) => `${o.source} ${o.ok}`).sort()).toEqual(["download true", "resolve true", "resolve true", "resolve true", "resolve true"]);
  });

  it("YouTube's bot wall on every client: after three failed resolves the status says down, in plain words", async () => {
    await engine.resolve("https://www.youtube.com/watch?v=vidfetchAll", anonymous);
    platform.setYouTubeModes({ botWall: ["VISIONOS", "ANDROID"] });
    expect((await status()).platforms[0]!.status).toBe("ok");
    for (const id of ["vidfetchAll", "vidfetch720"]) await expect(engine.resolve(`https://www.youtube.com/watch?v=${id}`, anonymous)).rejects.toMatchObject({ code: "video.bot_check" });
    // two failures and a success: a third of the attempts failed
    expect((await status()).platforms[0]).toMatchObject({ status: "degraded", detail: expect.stringContaining("2 of the last 3 attempts failed") });
    await expect(engine.resolve("https://www.youtube.com/watch?v=vidfetchCap", anonymous)).rejects.toMatchObject({ code: "video.bot_check" });
    await expect(engine.resolve("https://www.youtube.com/watch?v=vidfetchAge", anonymous)).rejects.toMatchObject({ code: "video.bot_check" });
    // the one success keeps it from "down"
    const [youtube] = (await status()).platforms;
    expect(youtube!.status).toBe("degraded");
    expect(youtube!.detail).toBe("YouTube downloads are less reliable than usual right now: 4 of the last 5 attempts failed. YouTube is asking our server to prove it is not a bot.");
  });

  it("the canary job resolves the mock platform's videos, reads their first bytes and records successes", async () => {
    const job = canaryJob({
      links: ["https://www.youtube.com/watch?v=vidfetchAll", "https://youtu.be/vidfetch720"],
      intervalMinutes: 30,
      canary: { openDownload: (input) => engine.openDownload(input), store },
      logger: silentLogger,
    });
    expect(job.cron).toBe("*/30 * * * *");
    const output = await job.handler({ id: "canary-1", data: null, retryCount: 0, signal: new AbortController().signal });
    expect(output).toEqual({ passed: 2, failed: [] });
    // the canary's resolves are its own record, not counted again as resolves
    expect((await store.read("youtube")).outcomes.map((o) => [o.source, o.ok])).toEqual([
      ["canary", true],
      ["canary", true],
    ]);
    expect((await status()).platforms[0]!.lastSuccessAt).not.toBeNull();
  });

  it("the canary job records a bot wall as failures, and three of them put YouTube down", async () => {
    platform.setYouTubeModes({ botWall: ["VISIONOS", "ANDROID"] });
    const links = ["https://www.youtube.com/watch?v=vidfetchAll", "https://youtu.be/vidfetch720", "https://www.youtube.com/watch?v=vidfetchCap"];
    const job = canaryJob({ links, intervalMinutes: 15, canary: { openDownload: (input) => engine.openDownload(input), store }, logger: silentLogger });
    const output = await job.handler({ id: "canary-2", data: null, retryCount: 0, signal: new AbortController().signal });
    expect(output).toEqual({ passed: 0, failed: links.map((link) => ({ link, code: "video.bot_check" })) });
    expect((await status()).platforms[0]).toEqual({
      id: "youtube",
      status: "down",
      lastSuccessAt: null,
      detail: "YouTube downloads are not working right now; we're on it. YouTube is asking our server to prove it is not a bot.",
    });
  });

  it("with CANARY_INTERVAL_MINUTES=0 the queue has no schedule and its job does nothing", async () => {
    const job = canaryJob({ links: ["https://youtu.be/vidfetch720"], intervalMinutes: 0, canary: { openDownload: (input) => engine.openDownload(input), store }, logger: silentLogger });
    expect(job.cron).toBeUndefined();
    expect(await job.handler({ id: "canary-3", data: null, retryCount: 0, signal: new AbortController().signal })).toEqual({ skipped: "the canary is off" });
    expect((await store.read("youtube")).outcomes).toEqual([]);
  });
});

describe("npm run canary", () => {
  it("prints a row per link and per client against the mock platform and exits 0 when all pass, 1 when one fails", async () => {
    // YOUTUBE_CLIENTS names ytdlp: its row is there only where yt-dlp is (YTDLP_PATH=off: not here)
    const env = { ...process.env, MOCKS: "true", DATA_DIR: path.join(os.tmpdir(), "vidfetch-canary-cli"), REDIS_URL: "", DATABASE_URL: "", LOG_LEVEL: "silent", YOUTUBE_CLIENTS: "VISIONOS,ANDROID,ytdlp", YTDLP_PATH: "off" };
    const tsx = path.resolve("node_modules/.bin/tsx");
    const passed = await execFileAsync(tsx, ["scripts/canary.ts"], { env, timeout: 170_000 });
    const lines = passed.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^link\s+platform\s+client\s+egress\s+result\s+time\s+failure$/);
    const row = (link: string, client: string) => new RegExp(`^${link.replace(/[.?/]/g, "\\$&")}\\s+youtube\\s+${client}\\s+direct\\s+ok\\s+\\d+\\.\\d s\\s+-$`);
    const all = "https://www.youtube.com/watch?v=vidfetchAll";
    const short = "https://youtu.be/vidfetch720";
    expect(lines.slice(1, 7)).toEqual([expect.stringMatching(row(all, "all")), expect.stringMatching(row(all, "VISIONOS")), expect.stringMatching(row(all, "ANDROID")), expect.stringMatching(row(short, "all")), expect.stringMatching(row(short, "VISIONOS")), expect.stringMatching(row(short, "ANDROID"))]);
    expect(lines[7]).toBe("all 6 checks passed");

    const failed = await execFileAsync(tsx, ["scripts/canary.ts", "https://youtu.be/vidfetch720", "https://www.youtube.com/watch?v=vidfetchPrv"], { env, timeout: 170_000 }).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(/vidfetchPrv\s+youtube\s+all\s+direct\s+FAILED\s+\d+\.\d s\s+video\.private/);
    expect(failed?.stdout).toMatch(/vidfetchPrv\s+youtube\s+VISIONOS\s+direct\s+FAILED\s+\d+\.\d s\s+video\.private/);
    expect(failed?.stdout).toContain("3 of 6 checks failed");
  }, 360_000);

  it("with two proxies it also prints a row per egress alone, each through its proxy", async () => {
    const proxies = [await startConnectProxy({ localAddress: "127.0.0.2" }), await startSocksProxy({ localAddress: "127.0.0.3" })];
    try {
      const env = {
        ...process.env,
        MOCKS: "true",
        DATA_DIR: path.join(os.tmpdir(), "vidfetch-canary-cli"),
        REDIS_URL: "",
        DATABASE_URL: "",
        LOG_LEVEL: "silent",
        YOUTUBE_CLIENTS: "VISIONOS,ANDROID",
        YTDLP_PATH: "off",
        OUTBOUND_PROXIES: proxies.map((p) => p.url).join(","),
      };
      const link = "https://youtu.be/vidfetch720";
      const { stdout } = await execFileAsync(path.resolve("node_modules/.bin/tsx"), ["scripts/canary.ts", link], { env, timeout: 170_000 });
      const rows = stdout.trim().split("\n").slice(1, -1).map((l) => l.split(/\s{2,}/).filter((c) => !/^\d+\.\d s$/.test(c)));
      const own = rows[0]![3]!;
      expect(["proxy-1", "proxy-2"]).toContain(own);
      expect(rows).toEqual([
        [link, "youtube", "all", own, "ok", "-"],
        [link, "youtube", "VISIONOS", own, "ok", "-"],
        [link, "youtube", "ANDROID", own, "ok", "-"],
        [link, "youtube", "all", "proxy-1 (alone)", "ok", "-"],
        [link, "youtube", "all", "proxy-2 (alone)", "ok", "-"],
      ]);
      expect(stdout).toContain("all 5 checks passed");
      // each proxy carried its pinned check (the other one's only traffic)
      for (const proxy of proxies) expect(proxy.tunnels().length).toBeGreaterThan(0);
    } finally {
      for (const proxy of proxies) await proxy.close();
    }
  }, 200_000);
});
