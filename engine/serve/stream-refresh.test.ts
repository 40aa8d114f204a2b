import { describe, expect, it } from "vitest";
import { isEngineError } from "../errors.ts";
import type { ResolvedMedia, UpstreamStream } from "../types.ts";
import { createStreamRefresh } from "./stream-refresh.ts";

const stream = (id: string, kind: UpstreamStream["kind"], url: string): UpstreamStream => ({ id, kind, url, transport: { type: "direct" }, container: "mp4" });
const media = (version: number, streams = [stream("137", "video", `https://cdn.test/v?e=${version}`), stream("140", "audio", `https://cdn.test/a?e=${version}`)]): ResolvedMedia => ({
  platform: "youtube",
  sourceUrl: "https://www.youtube.com/watch?v=abcdefghijk",
  details: { title: "t", durationSeconds: 10 } as ResolvedMedia["details"],
  streams,
  thumbnails: [],
  captions: [],
});

describe("createStreamRefresh", () => {
  it("one fresh resolve serves the video and the audio input asked within the reuse window", async () => {
    let t = 1000;
    let resolves = 0;
    const refresh = createStreamRefresh({ reResolve: async () => media(++resolves), now: () => t });
    const [video, audio] = await Promise.all([refresh(stream("137", "video", "old")), refresh(stream("140", "audio", "old"))]);
    expect(video.url).toBe("https://cdn.test/v?e=1");
    expect(audio.url).toBe("https://cdn.test/a?e=1");
    t += 5000;
    expect((await refresh(stream("137", "video", "old"))).url).toBe("https://cdn.test/v?e=1");
    expect(resolves).toBe(1);
  });

  it("resolves again once the last fresh result is older than the window", async () => {
    let t = 0;
    let resolves = 0;
    const refresh = createStreamRefresh({ reResolve: async () => media(++resolves), now: () => t, reuseMs: 100 });
    await refresh(stream("137", "video", "old"));
    t = 101;
    expect((await refresh(stream("137", "video", "old"))).url).toBe("https://cdn.test/v?e=2");
    expect(resolves).toBe(2);
  });

  it("matches on id and kind: a stream no longer listed fails as expired", async () => {
    const refresh = createStreamRefresh({ reResolve: async () => media(1, [stream("137", "audio", "https://cdn.test/x")]), now: () => 0 });
    const err = await refresh(stream("137", "video", "old")).catch((e: unknown) => e);
    expect(isEngineError(err) && err.code).toBe("upstream.expired");
  });

  it("a failed resolve fails every refresh waiting on it", async () => {
    const refresh = createStreamRefresh({ reResolve: () => Promise.reject(new Error("resolve failed")), now: () => 0 });
    const results = await Promise.allSettled([refresh(stream("137", "video", "old")), refresh(stream("140", "audio", "old"))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
