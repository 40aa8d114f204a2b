import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutbound, type Outbound } from "../../outbound/outbound-fetch.ts";
import { silentLogger } from "#tests/integration/engine-core/helpers.ts";
import { startFakeSponsorBlock, type FakeSponsorBlock } from "#tests/mocks/sponsorblock.ts";
import { createSponsorBlock, DEFAULT_SPONSORBLOCK_API_URL, mergeSpans, segmentsOfAnswer, type SponsorBlock } from "./sponsorblock.ts";

let api: FakeSponsorBlock;
let outbound: Outbound;

beforeAll(async () => {
  api = await startFakeSponsorBlock();
  // the public API's host, mapped to the fake: the request takes the real door (guard included)
  outbound = createOutbound({ hostMap: `sponsor.ajay.app=${api.origin}`, allowPrivate: false, timeoutMs: 2000, retries: 0, logger: silentLogger });
});
afterAll(async () => {
  outbound?.close();
  await api?.close();
});
beforeEach(() => {
  api.videos.clear();
  api.requests.length = 0;
  api.delayMs = 0;
  api.failWith = null;
});

const client = (over: Partial<Parameters<typeof createSponsorBlock>[0]> = {}): SponsorBlock =>
  createSponsorBlock({ baseUrl: DEFAULT_SPONSORBLOCK_API_URL, fetch: outbound.fetch, timeoutMs: 300, ...over });

describe("SponsorBlock segments", () => {
  it("asks by a hash prefix, never the video id, and returns the picked categories' skips in order", async () => {
    api.videos.set("dQw4w9WgXcQ", [
      { category: "outro", segment: [200, 212] },
      { category: "sponsor", segment: [30.5, 61] },
      { category: "intro", segment: [0, 8] },
      { category: "selfpromo", segment: [150, 160], actionType: "mute" },
    ]);
    const sb = client();
    expect(await sb.segmentsFor("dQw4w9WgXcQ", ["sponsor", "outro"])).toEqual([
      { category: "sponsor", start: 30.5, end: 61 },
      { category: "outro", start: 200, end: 212 },
    ]);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatch(/^\/api\/skipSegments\/[0-9a-f]{4}\?/);
    expect(api.requests[0]).not.toContain("dQw4w9WgXcQ");
    // another choice of categories is answered from the same cached answer
    expect(await sb.segmentsFor("dQw4w9WgXcQ", ["intro"])).toEqual([{ category: "intro", start: 0, end: 8 }]);
    expect(api.requests).toHaveLength(1);
  });

  it("a video without segments (404 for its prefix) has none", async () => {
    expect(await client().segmentsFor("aaaaaaaaaaa", ["sponsor"])).toEqual([]);
  });

  it("a slow API gives up in time and rests: the next asks answer null at once, without a request", async () => {
    api.videos.set("dQw4w9WgXcQ", [{ category: "sponsor", segment: [1, 2] }]);
    api.delayMs = 1500;
    let t = 1_000_000;
    const sb = client({ now: () => t, restMs: 60_000 });
    const started = performance.now();
    expect(await sb.segmentsFor("dQw4w9WgXcQ", ["sponsor"])).toBeNull();
    expect(performance.now() - started).toBeLessThan(1200);
    const asked = api.requests.length;
    expect(await sb.segmentsFor("dQw4w9WgXcQ", ["sponsor"])).toBeNull();
    expect(api.requests.length).toBe(asked);
    // after the rest it asks again
    api.delayMs = 0;
    t += 61_000;
    expect(await sb.segmentsFor("dQw4w9WgXcQ", ["sponsor"])).toEqual([{ category: "sponsor", start: 1, end: 2 }]);
  });

  it("an API that fails answers null, and concurrent asks share one request", async () => {
    api.failWith = 502;
    expect(await client().segmentsFor("dQw4w9WgXcQ", ["sponsor"])).toBeNull();
    api.failWith = null;
    api.videos.set("dQw4w9WgXcQ", [{ category: "sponsor", segment: [5, 9] }]);
    api.delayMs = 50;
    const sb = client();
    api.requests.length = 0;
    const all = await Promise.all([1, 2, 3].map(() => sb.segmentsFor("dQw4w9WgXcQ", ["sponsor"])));
    expect(all).toEqual([1, 2, 3].map(() => [{ category: "sponsor", start: 5, end: 9 }]));
    expect(api.requests).toHaveLength(1);
  });

  it("a caller that gives up gets null at once; the shared request goes on for the others", async () => {
    api.videos.set("dQw4w9WgXcQ", [{ category: "sponsor", segment: [5, 9] }]);
    api.delayMs = 100;
    const sb = client();
    const gone = new AbortController();
    const first = sb.segmentsFor("dQw4w9WgXcQ", ["sponsor"], gone.signal);
    const second = sb.segmentsFor("dQw4w9WgXcQ", ["sponsor"]);
    gone.abort();
    expect(await first).toBeNull();
    expect(await second).toEqual([{ category: "sponsor", start: 5, end: 9 }]);
  });

  it("a configured base on a private address (a mirror) is operator configuration, and is asked", async () => {
    api.videos.set("dQw4w9WgXcQ", [{ category: "intro", segment: [0, 4] }]);
    const mirror = client({ baseUrl: `${api.origin}/` });
    expect(await mirror.segmentsFor("dQw4w9WgXcQ", ["intro"])).toEqual([{ category: "intro", start: 0, end: 4 }]);
  });
});

describe("reading answers", () => {
  it("keeps well-formed skips of known categories of the asked video only", () => {
    const answer = [
      { videoID: "other", segments: [{ category: "sponsor", segment: [1, 2], actionType: "skip" }] },
      {
        videoID: "vid",
        segments: [
          { category: "sponsor", segment: [10, 5] },
          { category: "sponsor", segment: [-1, 5] },
          { category: "filler", segment: [1, 5] },
          { category: "sponsor", segment: ["a", 5] },
          { category: "sponsor", segment: [3, 4], actionType: "poi" },
          { category: "selfpromo", segment: [6, 7] },
        ],
      },
    ];
    expect(segmentsOfAnswer(answer, "vid")).toEqual([{ category: "selfpromo", start: 6, end: 7 }]);
    expect(() => segmentsOfAnswer({ not: "a list" }, "vid")).toThrow();
  });

  it("merges overlapping and touching spans for cutting", () => {
    expect(
      mergeSpans([
        { category: "sponsor", start: 30, end: 60 },
        { category: "intro", start: 0, end: 10 },
        { category: "selfpromo", start: 55, end: 70 },
        { category: "outro", start: 70, end: 80 },
        { category: "interaction", start: 100, end: 101 },
      ]),
    ).toEqual([
      { start: 0, end: 10 },
      { start: 30, end: 80 },
      { start: 100, end: 101 },
    ]);
  });
});
