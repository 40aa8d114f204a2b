import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomMedia, startFakeUpstream, type FakeUpstream } from "#tests/integration/engine-core/fake-upstream.ts";
import { collect, sha256, silentLogger } from "#tests/integration/engine-core/helpers.ts";
import { createOutbound, type Outbound } from "../outbound/outbound-fetch.ts";
import { openRangedSource } from "./ranged-reader.ts";

let upstream: FakeUpstream;
let outbound: Outbound;
const data = randomMedia(1_000_000);

beforeAll(async () => {
  upstream = await startFakeUpstream();
  outbound = createOutbound({ hostMap: `cdn.example.com=${upstream.origin}`, allowPrivate: false, timeoutMs: 2000, retryDelayMs: 5, logger: silentLogger });
});
afterAll(async () => {
  outbound.close();
  await upstream.close();
});

describe("ranged reader", () => {
  it("reads a file in bounded Range chunks", async () => {
    upstream.files.set("/a.mp4", { data, type: "video/mp4" });
    const before = upstream.requests.length;
    const src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/a.mp4", chunkBytes: 128 * 1024, maxChunkBytes: 128 * 1024, retryDelayMs: 1 });
    expect(src.total).toBe(data.length);
    expect(src.length).toBe(data.length);
    expect(src.contentType).toBe("video/mp4");
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    const ranges = upstream.requests.slice(before).map((r) => r.headers.range);
    expect(ranges.length).toBe(Math.ceil(data.length / (128 * 1024)));
    expect(ranges[0]).toBe(`bytes=0-${128 * 1024 - 1}`);
  });

  it("grows its chunks while they arrive whole, and starts again small after a cut", async () => {
    const KiB = 1024;
    upstream.files.set("/grow.mp4", { data, type: "video/mp4" });
    let before = upstream.requests.length;
    let src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/grow.mp4", chunkBytes: 64 * KiB, retryDelayMs: 1 });
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    let ranges = upstream.requests.slice(before).map((r) => r.headers.range);
    // each chunk is asked for while the one before it streams (prefetch 1), so a size follows
    // from the chunks completed by then: 64, 64, 128, 256 KiB, then the rest of the megabyte
    expect(ranges).toEqual([`bytes=0-${64 * KiB - 1}`, `bytes=${64 * KiB}-${128 * KiB - 1}`, `bytes=${128 * KiB}-${256 * KiB - 1}`, `bytes=${256 * KiB}-${512 * KiB - 1}`, `bytes=${512 * KiB}-${data.length - 1}`]);

    // cut inside the 256 KiB chunk: the rest of it is asked for, and from then on no chunk is
    // longer than half the cut one (128 KiB)
    upstream.files.set("/grow-cut.mp4", { data, type: "video/mp4", cutAt: { at: 300_000, times: 1 } });
    before = upstream.requests.length;
    src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/grow-cut.mp4", chunkBytes: 64 * KiB, prefetch: 0, retryDelayMs: 1, logger: silentLogger });
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    ranges = upstream.requests.slice(before).map((r) => r.headers.range);
    expect(ranges.slice(0, 6)).toEqual([
      `bytes=0-${64 * KiB - 1}`,
      `bytes=${64 * KiB}-${192 * KiB - 1}`,
      `bytes=${192 * KiB}-${448 * KiB - 1}`,
      `bytes=300000-${448 * KiB - 1}`,
      `bytes=${448 * KiB}-${576 * KiB - 1}`,
      `bytes=${576 * KiB}-${704 * KiB - 1}`,
    ]);
  });

  it("reads a sub-range (for client Range requests)", async () => {
    upstream.files.set("/a.mp4", { data, type: "video/mp4" });
    const src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/a.mp4", chunkBytes: 100_000, start: 12_345, end: 654_321 });
    expect(src.length).toBe(654_321 - 12_345 + 1);
    expect(sha256(await collect(src.stream))).toBe(sha256(data.subarray(12_345, 654_322)));
  });

  it("resumes a cut chunk at its byte offset", async () => {
    upstream.files.set("/cut.mp4", { data, type: "video/mp4", cutAt: { at: 300_000, times: 1 } });
    const before = upstream.requests.length;
    const src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/cut.mp4", chunkBytes: 256 * 1024, maxChunkBytes: 256 * 1024, retryDelayMs: 1, logger: silentLogger });
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    const ranges = upstream.requests.slice(before).map((r) => r.headers.range);
    // the cut chunk resumed exactly where the bytes stopped, asking only for the rest of that
    // chunk (the next one was already requested ahead)
    expect(ranges.filter((r) => r?.startsWith("bytes=300000-"))).toEqual([`bytes=300000-${2 * 256 * 1024 - 1}`]);
    expect(ranges.filter((r) => r === `bytes=${2 * 256 * 1024}-${3 * 256 * 1024 - 1}`).length).toBe(1);
  });

  it("re-resolves on 403 and continues where it stopped", async () => {
    const file = { data, type: "video/mp4", validTokens: new Set(["t1"]) };
    upstream.files.set("/exp.mp4", file);
    let refreshes = 0;
    let opened = 0;
    const src = await openRangedSource({
      // the first URL expires once the first chunk is open: the prefetched chunk meets the 403
      open: async (url, init) => {
        const res = await outbound.open(url, init);
        if (++opened === 1) file.validTokens = new Set(["t2"]);
        return res;
      },
      url: "https://cdn.example.com/exp.mp4?token=t1",
      chunkBytes: 200_000,
      refresh: async () => {
        refreshes++;
        return "https://cdn.example.com/exp.mp4?token=t2";
      },
    });
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    expect(refreshes).toBe(1);
    const afterRefresh = upstream.requests.filter((r) => r.url.includes("/exp.mp4?token=t2"));
    expect(afterRefresh[0]?.headers.range).toBe("bytes=200000-399999");
  });

  it("asks for a fresh URL once when several prefetched chunks meet the 403", async () => {
    const file = { data, type: "video/mp4", validTokens: new Set(["t1"]) };
    upstream.files.set("/exp3.mp4", file);
    let refreshes = 0;
    let opened = 0;
    const src = await openRangedSource({
      open: async (url, init) => {
        const res = await outbound.open(url, init);
        if (++opened === 1) file.validTokens = new Set(["t2"]);
        return res;
      },
      url: "https://cdn.example.com/exp3.mp4?token=t1",
      chunkBytes: 100_000,
      maxChunkBytes: 100_000,
      prefetch: 3,
      refresh: async () => {
        refreshes++;
        await new Promise((r) => setTimeout(r, 20));
        return "https://cdn.example.com/exp3.mp4?token=t2";
      },
    });
    expect(sha256(await collect(src.stream))).toBe(sha256(data));
    expect(refreshes).toBe(1);
    const refused = upstream.requests.filter((r) => r.url.includes("/exp3.mp4?token=t1")).map((r) => r.headers.range);
    // the three chunks in flight were refused together; each was asked again with the fresh URL
    expect(refused).toEqual(expect.arrayContaining(["bytes=100000-199999", "bytes=200000-299999", "bytes=300000-399999"]));
    const fresh = upstream.requests.filter((r) => r.url.includes("/exp3.mp4?token=t2")).map((r) => r.headers.range);
    expect(new Set(fresh).size).toBe(fresh.length);
    expect(fresh.length).toBe(9);
  });

  it("gives upstream.expired on 403 without a refresh", async () => {
    upstream.files.set("/gone.mp4", { data, type: "video/mp4", validTokens: new Set(["x"]) });
    await expect(openRangedSource({ open: outbound.open, url: "https://cdn.example.com/gone.mp4?token=bad", chunkBytes: 1000 })).rejects.toMatchObject({
      code: "upstream.expired",
    });
  });

  it("fails the stream (not a clean end) when the source keeps failing", async () => {
    upstream.files.set("/broken.mp4", { data, type: "video/mp4", failAfter: 500_000 });
    const src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/broken.mp4", chunkBytes: 256 * 1024, maxRetries: 2, retryDelayMs: 1, logger: silentLogger });
    await expect(collect(src.stream)).rejects.toMatchObject({ code: "upstream.fetch_failed" });
  });

  it("copes with an upstream that ignores Range", async () => {
    upstream.files.set("/norange.mp4", { data, type: "video/mp4", ignoreRange: true });
    const src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/norange.mp4", chunkBytes: 100_000, start: 10 });
    expect(sha256(await collect(src.stream))).toBe(sha256(data.subarray(10)));
  });

  it("respects backpressure: a stalled consumer stops the fetching", async () => {
    const big = randomMedia(8_000_000);
    upstream.files.set("/big.mp4", { data: big, type: "video/mp4" });
    const before = upstream.requests.length;
    const src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/big.mp4", chunkBytes: 256 * 1024 });
    let read = 0;
    for await (const c of src.stream) {
      read += (c as Buffer).length;
      if (read > 600_000) break; // the consumer stops reading (and leaves)
    }
    await new Promise((r) => setTimeout(r, 300));
    const requests = upstream.requests.length - before;
    // at most the chunks that were read plus one in flight; never the whole 8 MB
    expect(requests).toBeLessThanOrEqual(Math.ceil(600_000 / (256 * 1024)) + 2);
  });

  it("a paused consumer holds memory bounded", async () => {
    const big = randomMedia(8_000_000);
    upstream.files.set("/big2.mp4", { data: big, type: "video/mp4" });
    const sentBefore = upstream.sent();
    const src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/big2.mp4", chunkBytes: 1024 * 1024 });
    src.stream.pause();
    await new Promise((r) => setTimeout(r, 400));
    // socket buffers plus one chunk at most, far below the file size
    expect(upstream.sent() - sentBefore).toBeLessThan(2_500_000);
    src.stream.destroy();
  });

  it("keeps at most 1 + prefetch requests open, however fast the consumer", async () => {
    const big = randomMedia(3_000_000);
    upstream.files.set("/bounded.mp4", { data: big, type: "video/mp4", delayMs: 5 });
    for (const prefetch of [0, 1, 2]) {
      let open = 0;
      let maxOpen = 0;
      const src = await openRangedSource({
        open: async (url, init) => {
          open++;
          maxOpen = Math.max(maxOpen, open);
          try {
            const res = await outbound.open(url, init);
            let counted = true;
            const done = () => {
              if (counted) open--;
              counted = false;
            };
            res.body.once("end", done);
            res.body.once("close", done);
            return res;
          } catch (err) {
            open--;
            throw err;
          }
        },
        url: "https://cdn.example.com/bounded.mp4",
        chunkBytes: 100_000,
        prefetch,
      });
      expect(sha256(await collect(src.stream))).toBe(sha256(big));
      expect(maxOpen).toBe(1 + prefetch);
    }
  });

  it("a stalled consumer with a prefetch holds at most the chunks in flight", async () => {
    const big = randomMedia(8_000_000);
    upstream.files.set("/stall.mp4", { data: big, type: "video/mp4" });
    const before = upstream.requests.length;
    const sentBefore = upstream.sent();
    const src = await openRangedSource({ open: outbound.open, url: "https://cdn.example.com/stall.mp4", chunkBytes: 256 * 1024, maxChunkBytes: 256 * 1024, prefetch: 2 });
    src.stream.pause();
    await new Promise((r) => setTimeout(r, 400));
    // the Readable's buffer (1 MiB) fills from the current chunk and the parked ones, then
    // everything stops: a handful of chunks requested, a small part of the 8 MB sent
    const requests = upstream.requests.length - before;
    expect(requests).toBeLessThanOrEqual(Math.ceil((1024 * 1024) / (256 * 1024)) + 1 + 2);
    expect(upstream.sent() - sentBefore).toBeLessThan(3_000_000);
    expect(src.stream.readableLength).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    src.stream.destroy();
  });

  it("asks again for a prefetched chunk that died while parked, without counting a failure", async () => {
    const file = randomMedia(1_500_000);
    upstream.files.set("/parked.mp4", { data: file, type: "video/mp4" });
    const before = upstream.requests.length;
    let opened = 0;
    const src = await openRangedSource({
      open: async (url, init) => {
        const res = await outbound.open(url, init);
        // the second request (the first prefetch) dies while it waits for its turn
        if (++opened === 2) res.body.destroy();
        return res;
      },
      url: "https://cdn.example.com/parked.mp4",
      chunkBytes: 500_000,
      maxRetries: 0,
      logger: silentLogger,
    });
    expect(sha256(await collect(src.stream))).toBe(sha256(file));
    const ranges = upstream.requests.slice(before).map((r) => r.headers.range);
    expect(ranges).toEqual(["bytes=0-499999", "bytes=500000-999999", "bytes=500000-999999", "bytes=1000000-1499999"]);
  });
});
