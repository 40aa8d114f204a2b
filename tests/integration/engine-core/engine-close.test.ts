/**
 * `engine.close()` (graceful shutdown) while downloads are in flight: every stream the engine
 * cancels is torn down without an 'error' event nobody listens to, which would crash the server
 * on its way out ("Unhandled 'error' event").
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EngineError } from "#engine/errors.ts";
import { createEngine, type Engine } from "#engine/index.ts";
import type { SpawnGate } from "#engine/media/spawn-gate.ts";
import type { Caller } from "#engine/types.ts";
import { startMockPlatform, type MockPlatform } from "#tests/mocks/platform.ts";
import { dlPath, serveDownloads, startEngineFixture, testConfig, WATCH_URL, type EngineFixture } from "./engine-fixture.ts";
import { workingMediaChildren } from "../../support/media-children.ts";

const anonymous: Caller = { kind: "anonymous" };

/** Errors that reached no listener while a test ran (vitest reports them too, after the fact). */
let uncaught: Error[] = [];
const onUncaught = (err: Error) => uncaught.push(err);
beforeEach(() => {
  uncaught = [];
  process.on("uncaughtException", onUncaught);
});
afterEach(() => {
  process.off("uncaughtException", onUncaught);
});

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** ffmpeg processes at work that are children of this test process (the engine runs in-process). */
const ourFfmpegs = async (): Promise<number> => (await workingMediaChildren()).length;

/**
 * A client that reads nothing after the headers (a slow visitor), so a download that streams
 * stays in flight. `status` is the response's status (0 when the connection broke first).
 */
function slowClient(url: string): { status: Promise<number>; responded: () => boolean } {
  let responded = false;
  const status = new Promise<number>((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      responded = true;
      res.pause();
      res.on("error", () => undefined);
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => resolve(0));
  });
  return { status, responded: () => responded };
}

describe("engine.close() with downloads in flight", () => {
  describe("inputs opened, nothing consuming them yet", () => {
    let fx: EngineFixture;
    let logs: Array<{ level: number; msg: string }>;
    beforeEach(async () => {
      logs = [];
      const logger = pino({ level: "info" }, { write: (line: string) => void logs.push(JSON.parse(line) as { level: number; msg: string }) });
      // a slow CDN in small chunks: a video input is mid-file for seconds
      fx = await startEngineFixture({ upstreamDelayMs: 300, config: { logger, limits: { chunkBytes: 16 * 1024, maxChunkBytes: 16 * 1024, outboundTimeoutMs: 30_000 } } });
    });
    afterEach(async () => {
      await fx?.close();
    });

    const videoRequests = () => fx.upstream.requests.filter((r) => r.url.startsWith("/video-360.mp4")).length;
    const audioRequests = () => fx.upstream.requests.filter((r) => r.url.startsWith("/audio.m4a")).length;

    it("close() while a remux waits for its second input: no unhandled 'error' event, the client is told to retry", async () => {
      // The audio input is slow to answer: each MP4 remux has its video input open and fetching
      // (nothing reads it before ffmpeg starts) while it waits for the audio.
      fx.upstream.files.get("/audio.m4a")!.delayMs = 8_000;
      const server = await fx.serve();
      try {
        const downloads = await Promise.all([1, 2, 3].map(() => fx.engine.createDownload({ url: WATCH_URL, format: "mp4-360", caller: anonymous, ip: "192.0.2.10" })));
        const clients = downloads.map((d) => slowClient(server.origin + dlPath(d.downloadUrl)));
        // every video input is past its first chunk (mid-file), every audio input still opening
        expect(await until(() => videoRequests() >= 3 * 3 && audioRequests() >= 3, 20_000)).toBe(true);
        await fx.engine.close();
        // the clients still wait: each learns the server is busy (a restart) instead of hanging
        expect(await Promise.all(clients.map((c) => c.status))).toEqual([503, 503, 503]);
        await new Promise((r) => setTimeout(r, 500)); // late teardown events
        expect(uncaught).toEqual([]);
        // a shutdown is not a server fault: the aborts it causes log no warning or error
        expect(logs.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);
        expect(logs.filter((l) => l.msg === "download stopped: the engine is closing")).toHaveLength(3);
        expect(await ourFfmpegs()).toBe(0);
      } finally {
        await server.close();
      }
    }, 60_000);

    it("an input that breaks while ffmpeg waits for its spawn turn fails the download before the headers", async () => {
      // The spawn queue of a saturated server, released by the test.
      const waiting: Array<() => void> = [];
      const gate: SpawnGate = {
        turn: (signal) =>
          new Promise<void>((resolve, reject) => {
            waiting.push(resolve);
            signal?.addEventListener("abort", () => reject(new EngineError("download.failed", { detail: "aborted before ffmpeg started", cause: signal.reason })), { once: true });
          }),
        waiting: () => waiting.length,
      };
      await fx.close();
      fx = await startEngineFixture({ config: { limits: { chunkBytes: 16 * 1024, maxChunkBytes: 16 * 1024 } }, deps: { spawnGate: gate } });
      // the CDN cuts the video at 100 KB, every time: the reader gives up after its retries
      fx.upstream.files.get("/video-360.mp4")!.failAfter = 100_000;
      const server = await fx.serve();
      try {
        const d = await fx.engine.createDownload({ url: WATCH_URL, format: "mp4-360", caller: anonymous, ip: "192.0.2.11" });
        const client = slowClient(server.origin + dlPath(d.downloadUrl));
        expect(await until(() => waiting.length === 1, 20_000)).toBe(true);
        // cut at byte 100000, then 4 retries from there (0.2 + 0.4 + 0.8 + 1.6 s apart): the reader fails
        const retries = () => fx.upstream.requests.filter((r) => r.url.startsWith("/video-360.mp4") && String(r.headers.range).startsWith("bytes=100000-")).length;
        expect(await until(() => retries() >= 4, 20_000)).toBe(true);
        await new Promise((r) => setTimeout(r, 500));
        expect(uncaught).toEqual([]);
        for (const grant of waiting) grant();
        expect(await client.status).toBe(502);
        expect(await ourFfmpegs()).toBe(0);
      } finally {
        await server.close();
      }
    }, 60_000);
  });

  describe("the MOCKS=true composition: YouTube and generic HLS on the mock platform", () => {
    let platform: MockPlatform;
    let engine: Engine;
    beforeEach(async () => {
      platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
      engine = await createEngine(testConfig({ hostMap: platform.hostMap, limits: { chunkBytes: 16 * 1024, maxChunkBytes: 16 * 1024, resolveCacheSeconds: 60 } }), { killGraceMs: 500 });
    });
    afterEach(async () => {
      await engine?.close();
      await platform?.close();
    });

    it("closes mid-stream (ffmpeg running, inputs fetching, some still resolving) without a crash", async () => {
      const server = await serveDownloads(engine);
      try {
        const jobs: Array<[string, string]> = [];
        for (let i = 0; i < 4; i++) {
          jobs.push(
            ["https://www.youtube.com/watch?v=vidfetchAll", "mp3-128"],
            ["https://www.youtube.com/watch?v=vidfetchAll", "mp4-1080"],
            ["https://www.youtube.com/watch?v=vidfetchAll", "webm"],
            ["https://media.example.test/hls/master.m3u8", "mp4-720"],
          );
        }
        const downloads = await Promise.all(jobs.map(([url, format]) => engine.createDownload({ url, format, caller: anonymous, ip: "192.0.2.20" })));
        const clients = downloads.map((d) => slowClient(server.origin + dlPath(d.downloadUrl)));
        // close once some downloads stream (the others are at every earlier stage)
        expect(await until(() => clients.some((c) => c.responded()), 30_000)).toBe(true);
        expect(await until(async () => (await ourFfmpegs()) > 0, 5_000)).toBe(true);
        await engine.close();
        await engine.close(); // idempotent
        // streaming ones keep their 200; the others are told to come back
        for (const s of await Promise.all(clients.map((c) => c.status))) expect([200, 503]).toContain(s);
        expect(await until(async () => (await ourFfmpegs()) === 0, 5_000)).toBe(true);
        await new Promise((r) => setTimeout(r, 500)); // late teardown events
        expect(uncaught).toEqual([]);
      } finally {
        await server.close();
      }
    }, 120_000);
  });
});
