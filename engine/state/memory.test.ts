import { describe, expect, it } from "vitest";
import type { ResolvedMedia } from "../types.ts";
import { estimateMediaBytes } from "./media-size.ts";
import { memoryEngineState, memoryResolveCache } from "./memory.ts";
import { engineStateContract } from "#tests/support/engine-state-contract.ts";

engineStateContract("in-process state", {
  make: (limits, now = Date.now) => memoryEngineState({ limits, now }),
  shared: false,
});

describe("the in-process resolve cache", () => {
  /** a link of `count` segments with URLs of about 60 characters */
  const segmented = (title: string, count: number): ResolvedMedia =>
    ({
      platform: "generic",
      sourceUrl: `https://cdn.example/${title}.m3u8`,
      details: { title, description: "" },
      streams: [
        {
          id: "hls-0",
          kind: "progressive",
          url: `https://cdn.example/${title}.m3u8`,
          container: "ts",
          transport: { type: "segments", protocol: "hls", segments: Array.from({ length: count }, (_, i) => ({ url: `https://cdn.example/${title}/segment-${String(i).padStart(6, "0")}.ts` })) },
        },
      ],
      thumbnails: [],
      captions: [],
    }) as unknown as ResolvedMedia;

  // issue 27, finding 4: the cap counted entries, and 60 huge playlists held 900 MB
  it("is bounded by the estimated bytes it holds, not only by its entries", async () => {
    const one = estimateMediaBytes(segmented("a", 10_000));
    expect(one).toBeGreaterThan(1_500_000);
    const cache = memoryResolveCache(Date.now, 500, one * 4.5);
    for (let i = 0; i < 20; i++) await cache.set(`k${i}`, segmented(`v${i}`, 10_000), Date.now() + 60_000);
    const kept: string[] = [];
    for (let i = 0; i < 20; i++) if (await cache.get(`k${i}`)) kept.push(`k${i}`);
    // the newest that fit, the oldest dropped
    expect(kept).toEqual(["k16", "k17", "k18", "k19"]);
  });

  it("does not keep one link that weighs more than a quarter of the budget", async () => {
    const cache = memoryResolveCache(Date.now, 500, estimateMediaBytes(segmented("b", 1000)) * 3);
    await cache.set("big", segmented("big", 1000), Date.now() + 60_000);
    expect(await cache.get("big")).toBeUndefined();
    await cache.set("small", segmented("small", 100), Date.now() + 60_000);
    expect(await cache.get("small")).toBeDefined();
  });
});
