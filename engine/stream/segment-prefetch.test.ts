import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomMedia, startFakeUpstream, type FakeUpstream } from "#tests/integration/engine-core/fake-upstream.ts";
import { collect, sha256, silentLogger } from "#tests/integration/engine-core/helpers.ts";
import type { SegmentRef } from "../types.ts";
import { createOutbound, type Outbound } from "../outbound/outbound-fetch.ts";
import { createSegmentPrefetch } from "./segment-prefetch.ts";
import { openSegmentSource } from "./segment-reader.ts";

let upstream: FakeUpstream;
let outbound: Outbound;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  outbound = createOutbound({ hostMap: `pre.example.com=${upstream.origin}`, allowPrivate: false, timeoutMs: 3000, retryDelayMs: 5, logger: silentLogger });
});
afterAll(async () => {
  outbound.close();
  await upstream.close();
});

function makeSegments(prefix: string, count: number, delayMs = 0): { refs: SegmentRef[]; whole: Buffer } {
  const parts: Buffer[] = [];
  const refs: SegmentRef[] = [];
  for (let i = 0; i < count; i++) {
    const data = randomMedia(20_000 + i * 100);
    parts.push(data);
    upstream.files.set(`/${prefix}/s${i}.ts`, { data, type: "video/mp2t", delayMs });
    refs.push({ url: `https://pre.example.com/${prefix}/s${i}.ts` });
  }
  return { refs, whole: Buffer.concat(parts) };
}

const asked = (prefix: string, i: number) => upstream.requests.filter((r) => r.url === `/${prefix}/s${i}.ts`).length;
const settle = () => new Promise((r) => setTimeout(r, 50));

describe("segment prefetch", () => {
  it("hands the reader the parts fetched before it opened: the origin is asked for each part once", async () => {
    const { refs, whole } = makeSegments("taken", 8);
    const prefetch = createSegmentPrefetch({ open: outbound.open, logger: silentLogger });
    prefetch.start(refs.slice(0, 3));
    expect(prefetch.size).toBe(3);
    const out = await collect(openSegmentSource({ open: outbound.open, segments: refs, concurrency: 3, prefetched: (ref, signal) => prefetch.take(ref, signal) }));
    expect(sha256(out)).toBe(sha256(whole));
    for (let i = 0; i < 8; i++) expect(asked("taken", i)).toBe(1);
    expect(prefetch.size).toBe(0);
    prefetch.close();
  });

  it("a prefetch that failed is fetched again by the reader, with its retries", async () => {
    const { refs, whole } = makeSegments("failed", 4);
    // the first answer for s1 is cut midway: the prefetch (no retries of its own) fails
    upstream.files.get("/failed/s1.ts")!.cutAt = { at: 5_000, times: 1 };
    const prefetch = createSegmentPrefetch({ open: outbound.open, logger: silentLogger });
    prefetch.start(refs.slice(0, 2));
    await settle();
    const out = await collect(openSegmentSource({ open: outbound.open, segments: refs, concurrency: 2, retryDelayMs: 1, prefetched: (ref, signal) => prefetch.take(ref, signal) }));
    expect(sha256(out)).toBe(sha256(whole));
    expect(asked("failed", 0)).toBe(1);
    expect(asked("failed", 1)).toBe(2);
    prefetch.close();
  });

  it("holds at most maxParts parts and maxBytes bytes; a part over the byte budget is dropped", async () => {
    const { refs, whole } = makeSegments("budget", 4);
    const byCount = createSegmentPrefetch({ open: outbound.open, maxParts: 2, logger: silentLogger });
    byCount.start(refs);
    expect(byCount.size).toBe(2);
    byCount.close();
    expect(byCount.size).toBe(0);

    // four parts of about 20 KB, 50 KB of budget: whichever two arrive last pass it and are dropped
    const byBytes = createSegmentPrefetch({ open: outbound.open, maxBytes: 50_000, logger: silentLogger });
    byBytes.start(refs);
    expect(byBytes.size).toBe(4);
    const deadline = Date.now() + 5000;
    while (byBytes.size > 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(byBytes.size).toBe(2);
    // the reader fetches the dropped ones itself
    const out = await collect(openSegmentSource({ open: outbound.open, segments: refs, concurrency: 4, prefetched: (ref, signal) => byBytes.take(ref, signal) }));
    expect(sha256(out)).toBe(sha256(whole));
    byBytes.close();
  });

  /** `outbound.open`, keeping the signal of every request it opens */
  function recordingOpen(): { open: typeof outbound.open; signals: AbortSignal[] } {
    const signals: AbortSignal[] = [];
    return {
      signals,
      open: (url, init) => {
        if (init?.signal) signals.push(init.signal);
        return outbound.open(url, init);
      },
    };
  }

  it("drops a part nobody takes within its time, aborting its request", async () => {
    const { refs } = makeSegments("ttl", 1, 400);
    const rec = recordingOpen();
    const prefetch = createSegmentPrefetch({ open: rec.open, ttlMs: 20, logger: silentLogger });
    prefetch.start(refs);
    expect(prefetch.size).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(prefetch.size).toBe(0);
    expect(prefetch.take(refs[0]!, new AbortController().signal)).toBeNull();
    expect(rec.signals).toHaveLength(1);
    expect(rec.signals[0]!.aborted).toBe(true);
    prefetch.close();
  });

  it("a taken part stops with the reader's signal; close() stops the rest", async () => {
    const { refs } = makeSegments("abort", 2, 300);
    const rec = recordingOpen();
    const prefetch = createSegmentPrefetch({ open: rec.open, logger: silentLogger });
    prefetch.start(refs);
    const controller = new AbortController();
    const taken = prefetch.take(refs[0]!, controller.signal)!;
    controller.abort();
    await expect(taken).rejects.toThrow();
    expect(rec.signals[0]!.aborted).toBe(true);
    expect(rec.signals[1]!.aborted).toBe(false);
    prefetch.close();
    expect(rec.signals[1]!.aborted).toBe(true);
  });

  it("release(owner) drops only that download's parts", async () => {
    const { refs } = makeSegments("owner", 3, 300);
    const rec = recordingOpen();
    const prefetch = createSegmentPrefetch({ open: rec.open, logger: silentLogger });
    prefetch.start(refs.slice(0, 2), "dl_a");
    prefetch.start(refs.slice(2), "dl_b");
    expect(prefetch.size).toBe(3);
    prefetch.release("dl_a");
    expect(prefetch.size).toBe(1);
    expect(rec.signals.map((s) => s.aborted)).toEqual([true, true, false]);
    expect(prefetch.take(refs[0]!, new AbortController().signal)).toBeNull();
    const stop = new AbortController();
    const kept = prefetch.take(refs[2]!, stop.signal);
    expect(kept).not.toBeNull();
    stop.abort();
    await expect(kept).rejects.toThrow();
    prefetch.close();
  });
  it("with inFlight, fetches that many parts at once and the next as soon as one is in, before the reader opens", async () => {
    const { refs, whole } = makeSegments("window", 6, 100);
    const prefetch = createSegmentPrefetch({ open: outbound.open, logger: silentLogger });
    prefetch.start(refs, "dl_w", 2);
    await settle();
    expect([0, 1, 2, 3, 4, 5].map((i) => asked("window", i))).toEqual([1, 1, 0, 0, 0, 0]);
    // three rounds of 100 ms: everything is in before anyone reads
    await expect.poll(() => asked("window", 5), { timeout: 3000 }).toBe(1);
    await expect.poll(() => prefetch.size).toBe(6);
    const out = await collect(openSegmentSource({ open: outbound.open, segments: refs, concurrency: 2, prefetched: (ref, signal) => prefetch.take(ref, signal) }));
    expect(sha256(out)).toBe(sha256(whole));
    for (let i = 0; i < 6; i++) expect(asked("window", i)).toBe(1);
    prefetch.close();
  });

  it("a waiting part the reader asks for first is fetched once, by the reader; release() cancels the rest", async () => {
    const { refs, whole } = makeSegments("overtaken", 4, 150);
    const prefetch = createSegmentPrefetch({ open: outbound.open, logger: silentLogger });
    prefetch.start(refs, "dl_o", 1);
    expect(prefetch.take(refs[3]!, new AbortController().signal)).toBeNull();
    const out = await collect(openSegmentSource({ open: outbound.open, segments: refs, concurrency: 4, prefetched: (ref, signal) => prefetch.take(ref, signal) }));
    expect(sha256(out)).toBe(sha256(whole));
    for (let i = 0; i < 4; i++) expect(asked("overtaken", i)).toBe(1);

    const other = makeSegments("released", 3, 150);
    prefetch.start(other.refs, "dl_r", 1);
    prefetch.release("dl_r");
    await new Promise((r) => setTimeout(r, 400));
    // the first one was aborted (it may or may not have reached the origin); the others never started
    expect(asked("released", 0)).toBeLessThanOrEqual(1);
    expect([1, 2].map((i) => asked("released", i))).toEqual([0, 0]);
    expect(prefetch.size).toBe(0);
    prefetch.close();
  });
});
