import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dlPath, get, startEngineFixture, WATCH_URL, type EngineFixture } from "./engine-fixture.ts";
import { workingMediaChildren } from "../../support/media-children.ts";

let fx: EngineFixture;
let server: { origin: string; close(): Promise<void> };

/** ffmpeg processes at work that are children of this test process (the engine runs in-process). */
const ourFfmpegs = (): Promise<number[]> => workingMediaChildren();

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

beforeAll(async () => {
  // a slow CDN (60 ms per 16 KB chunk), so every download is still running when its client leaves
  fx = await startEngineFixture({ upstreamDelayMs: 60, config: { limits: { chunkBytes: 16 * 1024, maxChunkBytes: 16 * 1024 } } });
  server = await fx.serve();
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
});

async function abortedRound(n: number): Promise<void> {
  const downloads = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      fx.engine.createDownload({ url: WATCH_URL, format: i % 2 === 0 ? "mp4-360" : "mp3-128", caller: { kind: "anonymous" }, ip: `192.0.2.${i}` }),
    ),
  );
  const results = await Promise.all(downloads.map((d) => get(server.origin + dlPath(d.downloadUrl), {}, { abortAfterBytes: 1 })));
  for (const r of results) {
    expect(r.status).toBe(200);
    expect(r.outcome).toBe("error");
  }
  // every download records the client leaving
  const ended = await until(async () => {
    const states = await Promise.all(
      downloads.map(async (d) => {
        let s = "";
        (await fx.engine.subscribeProgress(d.id, (p) => (s = p.state)))();
        return s;
      }),
    );
    return states.every((s) => s === "aborted");
  }, 5000);
  expect(ended).toBe(true);
}

describe("teardown", () => {
  it("20 downloads aborted midway leave no ffmpeg process and no growth in memory", async () => {
    await abortedRound(10); // warm-up: code paths, pools, JIT
    expect(await until(async () => (await ourFfmpegs()).length === 0, 5000)).toBe(true);
    const before = process.memoryUsage();
    await abortedRound(20);
    expect(await until(async () => (await ourFfmpegs()).length === 0, 5000)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    const after = process.memoryUsage();
    expect(after.rss - before.rss).toBeLessThan(40 * 1024 * 1024);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(20 * 1024 * 1024);
  }, 120_000); // 30 ffmpeg runs: slow on a busy CI machine

  it("ffmpeg is running while a download streams (the check above can see it)", async () => {
    const d = await fx.engine.createDownload({ url: WATCH_URL, format: "mp4-360", caller: { kind: "anonymous" }, ip: "192.0.2.200" });
    const pending = get(server.origin + dlPath(d.downloadUrl));
    expect(await until(async () => (await ourFfmpegs()).length > 0, 5000)).toBe(true);
    const res = await pending;
    expect(res.outcome).toBe("end");
    expect(await until(async () => (await ourFfmpegs()).length === 0, 5000)).toBe(true);
  }, 60_000);
});
