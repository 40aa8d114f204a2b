import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomMedia, startFakeUpstream, type FakeUpstream } from "#tests/integration/engine-core/fake-upstream.ts";
import { collect, sha256, silentLogger } from "#tests/integration/engine-core/helpers.ts";
import { startThrottlingProxy, type ThrottlingProxy } from "#tests/integration/media/throttling-proxy.ts";
import { createByteBudget } from "./connection-rate.ts";
import { createOutbound, type Outbound } from "../outbound/outbound-fetch.ts";
import { openRangedSource } from "./ranged-reader.ts";

/**
 * Issue 13: a direct file behind an origin that throttles each connection is fetched as parallel
 * ranges (never more than the configured number), in order, with a failed range resumed at its
 * offset; a fast origin, or a full memory budget, keeps one range at a time.
 */
let upstream: FakeUpstream;
let throttled: ThrottlingProxy;
let outbound: Outbound;
const CHUNK = 128 * 1024;
const data = randomMedia(1_600_000);

beforeAll(async () => {
  upstream = await startFakeUpstream();
  // 256 KiB/s per connection: the 128 KiB probe takes half a second
  throttled = await startThrottlingProxy({ target: upstream.origin, bytesPerSecond: 256 * 1024 });
  outbound = createOutbound({
    hostMap: `slow.example.com=${throttled.origin},fast.example.com=${upstream.origin}`,
    allowPrivate: false,
    timeoutMs: 5000,
    retryDelayMs: 5,
    logger: silentLogger,
  });
});
afterAll(async () => {
  outbound.close();
  await throttled.close();
  await upstream.close();
});

describe("parallel ranges on a throttling origin", () => {
  it("fetches the rest in parallel ranges after a slow probe, bounded by rangeConcurrency, bytes in order", async () => {
    upstream.files.set("/t.mp4", { data, type: "video/mp4" });
    throttled.resetPeak();
    const before = throttled.ranges.length;
    const src = await openRangedSource({ open: outbound.open, url: "https://slow.example.com/t.mp4", chunkBytes: CHUNK, rangeConcurrency: 4, retryDelayMs: 1, logger: silentLogger });
    expect(src.length).toBe(data.length);
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    const peak = throttled.peakInFlight();
    expect(peak).toBeGreaterThanOrEqual(3);
    expect(peak).toBeLessThanOrEqual(4);
    const ranges = throttled.ranges.slice(before);
    expect(ranges[0]).toBe(`bytes=0-${CHUNK - 1}`);
    // every byte was asked for exactly once
    const asked = ranges.map((r) => /bytes=(\d+)-(\d+)/.exec(r ?? "")!).map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(asked.reduce((n, [a, b]) => n + (b - a + 1), 0)).toBeGreaterThanOrEqual(data.length);
  });

  it("a range cut in the middle is asked again from the byte where it stopped", async () => {
    // the cut falls inside the parallel part [6×128K, 7×128K)
    const cutAt = 6 * CHUNK + 10_000;
    upstream.files.set("/cut.mp4", { data, type: "video/mp4", cutAt: { at: cutAt, times: 1 } });
    const before = throttled.ranges.length;
    const src = await openRangedSource({ open: outbound.open, url: "https://slow.example.com/cut.mp4", chunkBytes: CHUNK, rangeConcurrency: 4, retryDelayMs: 1, logger: silentLogger });
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    const resumed = throttled.ranges.slice(before).filter((r) => r?.startsWith(`bytes=${cutAt}-`));
    expect(resumed).toEqual([`bytes=${cutAt}-${7 * CHUNK - 1}`]);
  });

  it("does not grow its requests for an origin that throttles each connection", async () => {
    // parallel ranges off: the chunks stay at the configured size (each took half a second)
    upstream.files.set("/g.mp4", { data: data.subarray(0, 4 * CHUNK), type: "video/mp4" });
    const before = throttled.ranges.length;
    const src = await openRangedSource({ open: outbound.open, url: "https://slow.example.com/g.mp4", chunkBytes: CHUNK, rangeConcurrency: 1, prefetch: 0 });
    expect(sha256(await collect(src.stream))).toBe(sha256(data.subarray(0, 4 * CHUNK)));
    expect(throttled.ranges.slice(before)).toEqual([0, 1, 2, 3].map((i) => `bytes=${i * CHUNK}-${(i + 1) * CHUNK - 1}`));
  });

  it("keeps one range at a time on a fast origin", async () => {
    upstream.files.set("/f.mp4", { data, type: "video/mp4" });
    const before = upstream.requests.length;
    const src = await openRangedSource({ open: outbound.open, url: "https://fast.example.com/f.mp4", chunkBytes: CHUNK, maxChunkBytes: CHUNK, rangeConcurrency: 4 });
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    // chunk-sized ranges only (the 128 KiB probe, then chunks): no parallel parts were cut
    const ranges = upstream.requests.slice(before).map((r) => r.headers.range);
    expect(ranges.length).toBe(Math.ceil(data.length / CHUNK));
  });

  it("stays sequential when the process-wide memory budget is used up", async () => {
    upstream.files.set("/b.mp4", { data: data.subarray(0, 700_000), type: "video/mp4" });
    throttled.resetPeak();
    const budget = createByteBudget(1024); // no room for any window
    const src = await openRangedSource({ open: outbound.open, url: "https://slow.example.com/b.mp4", chunkBytes: CHUNK, rangeConcurrency: 4, budget });
    expect(sha256(await collect(src.stream))).toBe(sha256(data.subarray(0, 700_000)));
    // the current chunk and the one prefetched: never the parallel window
    expect(throttled.peakInFlight()).toBeLessThanOrEqual(2);
    expect(budget.reserved).toBe(0);
  });

  it("re-resolves an URL that expires during the parallel phase once, and goes on in order", async () => {
    const tokens = new Set(["t1"]);
    upstream.files.set("/exp.mp4", { data, type: "video/mp4", validTokens: tokens });
    let refreshes = 0;
    const src = await openRangedSource({
      open: outbound.open,
      url: "https://slow.example.com/exp.mp4?token=t1",
      chunkBytes: CHUNK,
      rangeConcurrency: 4,
      retryDelayMs: 1,
      logger: silentLogger,
      refresh: async () => {
        refreshes++;
        return "https://slow.example.com/exp.mp4?token=t2";
      },
    });
    const body = collect(src.stream);
    // expire the URL once parallel parts are in flight
    await expect.poll(() => throttled.inFlight(), { timeout: 5000, interval: 10 }).toBeGreaterThan(2);
    tokens.delete("t1");
    tokens.add("t2");
    expect(sha256(await body)).toBe(sha256(data));
    expect(refreshes).toBe(1);
  });

  it("aborting during parallel fetching closes every upstream response", async () => {
    upstream.files.set("/abort.mp4", { data, type: "video/mp4" });
    const controller = new AbortController();
    const src = await openRangedSource({
      open: outbound.open,
      url: "https://slow.example.com/abort.mp4",
      chunkBytes: CHUNK,
      rangeConcurrency: 4,
      signal: controller.signal,
      logger: silentLogger,
    });
    src.stream.on("error", () => undefined);
    let got = 0;
    src.stream.on("data", (c: Buffer) => (got += c.length));
    // past the probe, with parallel parts in flight
    await expect.poll(() => got > 2 * CHUNK && throttled.inFlight() >= 2, { timeout: 10_000, interval: 5 }).toBe(true);
    controller.abort();
    await expect.poll(() => throttled.inFlight(), { timeout: 2000 }).toBe(0);
    expect(src.stream.destroyed).toBe(true);
  });
});
