import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomMedia, startFakeUpstream, type FakeUpstream } from "#tests/integration/engine-core/fake-upstream.ts";
import { collect, sha256, silentLogger } from "#tests/integration/engine-core/helpers.ts";
import type { SegmentRef } from "../types.ts";
import { createOutbound, type Outbound } from "../outbound/outbound-fetch.ts";
import { openSegmentSource } from "./segment-reader.ts";

let upstream: FakeUpstream;
let outbound: Outbound;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  outbound = createOutbound({ hostMap: `seg.example.com=${upstream.origin}`, allowPrivate: false, timeoutMs: 3000, retryDelayMs: 5, logger: silentLogger });
});
afterAll(async () => {
  outbound.close();
  await upstream.close();
});

function makeSegments(prefix: string, count: number, delays: (i: number) => number): { refs: SegmentRef[]; whole: Buffer } {
  const parts: Buffer[] = [];
  const refs: SegmentRef[] = [];
  for (let i = 0; i < count; i++) {
    const data = randomMedia(20_000 + i * 100);
    parts.push(data);
    upstream.files.set(`/${prefix}/s${i}.ts`, { data, type: "video/mp2t", delayMs: delays(i) });
    refs.push({ url: `https://seg.example.com/${prefix}/s${i}.ts` });
  }
  return { refs, whole: Buffer.concat(parts) };
}

describe("segment reader", () => {
  it("emits segments strictly in order even when later ones arrive first", async () => {
    const { refs, whole } = makeSegments("order", 12, (i) => (i % 3 === 0 ? 80 : 5));
    const init = randomMedia(1000);
    upstream.files.set("/order/init.mp4", { data: init, type: "video/mp4" });
    const stream = openSegmentSource({ open: outbound.open, init: { url: "https://seg.example.com/order/init.mp4" }, segments: refs, concurrency: 4 });
    expect(sha256(await collect(stream))).toBe(sha256(Buffer.concat([init, whole])));
  });

  it("re-resolves expired segment URLs once and goes on from the refused segment", async () => {
    const { refs, whole } = makeSegments("expire", 10, () => 2);
    const tokens = new Set(["t1"]);
    for (let i = 0; i < 10; i++) upstream.files.get(`/expire/s${i}.ts`)!.validTokens = tokens;
    const withToken = (t: string) => refs.map((r) => ({ url: `${r.url}?token=${t}` }));
    let refreshCalls = 0;
    // the first four segments go through, then the old token stops working
    const open: typeof outbound.open = async (url, init) => {
      if (String(url).includes("/s4.ts")) tokens.delete("t1");
      return outbound.open(url, init);
    };
    const stream = openSegmentSource({
      open,
      segments: withToken("t1"),
      concurrency: 3,
      refresh: async () => {
        refreshCalls++;
        tokens.add("t2");
        return { segments: withToken("t2") };
      },
    });
    expect(sha256(await collect(stream))).toBe(sha256(whole));
    expect(refreshCalls).toBe(1);
  });

  it("fails clearly when segments stay refused after re-resolving", async () => {
    const { refs } = makeSegments("gone", 4, () => 2);
    for (let i = 0; i < 4; i++) upstream.files.get(`/gone/s${i}.ts`)!.validTokens = new Set(["never"]);
    let refreshCalls = 0;
    const stream = openSegmentSource({
      open: outbound.open,
      segments: refs,
      concurrency: 2,
      refresh: async () => {
        refreshCalls++;
        return { segments: refs };
      },
    });
    await expect(collect(stream)).rejects.toMatchObject({ code: "upstream.expired" });
    expect(refreshCalls).toBe(3);
  });

  it("fetches in parallel, never more than the configured concurrency", async () => {
    let active = 0;
    let peak = 0;
    const open: typeof outbound.open = async (url, init) => {
      active++;
      peak = Math.max(peak, active);
      try {
        const res = await outbound.open(url, init);
        res.body.once("close", () => active--);
        return res;
      } catch (err) {
        active--;
        throw err;
      }
    };
    const { refs, whole } = makeSegments("par", 16, () => 30);
    const started = Date.now();
    const out = await collect(openSegmentSource({ open, segments: refs, concurrency: 4 }));
    expect(sha256(out)).toBe(sha256(whole));
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(4);
    // 16 segments × 30 ms sequentially would take ≥ 480 ms
    expect(Date.now() - started).toBeLessThan(480);
  });

  it("honours byte ranges (fMP4 SegmentBase / EXT-X-BYTERANGE)", async () => {
    const file = randomMedia(50_000);
    upstream.files.set("/ranged/all.mp4", { data: file, type: "video/mp4" });
    const refs: SegmentRef[] = [
      { url: "https://seg.example.com/ranged/all.mp4", range: { start: 0, end: 999 } },
      { url: "https://seg.example.com/ranged/all.mp4", range: { start: 1000, end: 29_999 } },
      { url: "https://seg.example.com/ranged/all.mp4", range: { start: 30_000, end: 49_999 } },
    ];
    expect(sha256(await collect(openSegmentSource({ open: outbound.open, segments: refs, concurrency: 2 })))).toBe(sha256(file));
  });

  it("retries a cut segment", async () => {
    const { refs, whole } = makeSegments("retry", 5, () => 0);
    upstream.files.get("/retry/s2.ts")!.cutAt = { at: 5000, times: 1 };
    expect(sha256(await collect(openSegmentSource({ open: outbound.open, segments: refs, concurrency: 3, retryDelayMs: 1, logger: silentLogger })))).toBe(sha256(whole));
  });

  it("fails the stream when a segment cannot be fetched", async () => {
    const { refs } = makeSegments("fail", 5, () => 0);
    upstream.files.delete("/fail/s3.ts");
    await expect(collect(openSegmentSource({ open: outbound.open, segments: refs, concurrency: 2, retryDelayMs: 1 }))).rejects.toMatchObject({
      code: "upstream.expired",
    });
  });

  it("does not run ahead of a stalled consumer", async () => {
    const { refs } = makeSegments("stall", 40, () => 0);
    const before = upstream.requests.length;
    const stream = openSegmentSource({ open: outbound.open, segments: refs, concurrency: 3 });
    let n = 0;
    for await (const _ of stream) {
      if (++n >= 2) break;
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(upstream.requests.length - before).toBeLessThanOrEqual(2 + 3 + 3);
  });

  it("a slow segment at the head does not idle the other slots (within the window)", async () => {
    // segment 0 takes 300 ms, the rest 20 ms: with 3 slots freed only on delivery, nothing else
    // could start during those 300 ms beyond segments 1 and 2
    const { refs, whole } = makeSegments("hol", 12, (i) => (i === 0 ? 300 : 20));
    const before = upstream.requests.length;
    const stream = openSegmentSource({ open: outbound.open, segments: refs, concurrency: 3, ahead: 3 });
    const parts: Buffer[] = [];
    let startedWhenHeadArrived = 0;
    for await (const c of stream) {
      if (parts.length === 0) startedWhenHeadArrived = upstream.requests.length - before;
      parts.push(c as Buffer);
    }
    expect(sha256(Buffer.concat(parts))).toBe(sha256(whole));
    // while segment 0 was on its way, the whole window (3 in flight + 3 waiting) was used
    expect(startedWhenHeadArrived).toBeGreaterThanOrEqual(6);
  });

  it("never holds more than concurrency + ahead segments fetched and not handed on", async () => {
    const { refs } = makeSegments("window", 60, () => 0);
    const before = upstream.requests.length;
    const stream = openSegmentSource({ open: outbound.open, segments: refs, concurrency: 4, ahead: 2 });
    // nobody reads yet: fetching starts, and stops at the window
    await new Promise((r) => setTimeout(r, 300));
    expect(upstream.requests.length - before).toBe(6);
    let n = 0;
    for await (const _ of stream) {
      if (++n >= 10) break;
    }
    await new Promise((r) => setTimeout(r, 200));
    // 10 consumed, at most a high-water mark's worth (64 KiB: 4 segments of ~20 KB) in the
    // Readable's buffer, plus the window
    expect(upstream.requests.length - before).toBeLessThanOrEqual(10 + 4 + 6);
  });
});
