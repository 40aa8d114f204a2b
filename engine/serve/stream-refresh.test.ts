import { describe, expect, it } from "vitest";
import { isEngineError } from "../errors.ts";
import type { ResolvedMedia, UpstreamStream } from "../types.ts";
import { clientOfStreamUrl, createStreamRefresh } from "./stream-refresh.ts";

const stream = (id: string, kind: UpstreamStream["kind"], url: string): UpstreamStream => ({ id, kind, url, transport: { type: "direct" }, container: "mp4" });
const media = (version: number, client = "VISIONOS", streams = [stream("137", "video", `https://rr1---x.googlevideo.com/videoplayback?c=${client}&e=${version}`), stream("140", "audio", `https://rr1---x.googlevideo.com/videoplayback?c=${client}&a=${version}`)]): ResolvedMedia => ({
  platform: "youtube",
  sourceUrl: "https://www.youtube.com/watch?v=abcdefghijk",
  details: { title: "t", durationSeconds: 10 } as ResolvedMedia["details"],
  streams,
  thumbnails: [],
  captions: [],
});
const codeOf = (err: unknown) => (isEngineError(err) ? err.code : err);

describe("createStreamRefresh", () => {
  it("one fresh resolve serves the video and the audio input refused together", async () => {
    let resolves = 0;
    const refresh = createStreamRefresh({ reResolve: async () => media(++resolves) });
    const [video, audio] = await Promise.all([refresh(stream("137", "video", "old")), refresh(stream("140", "audio", "old"))]);
    expect(video.url).toContain("e=1");
    expect(audio.url).toContain("a=1");
    // an input refused later with its old URL gets the fresh one, climbing nothing
    expect((await refresh(stream("137", "video", "old"))).url).toContain("e=1");
    expect(resolves).toBe(1);
  });

  it("a segmented stream whose playlist URL stays the same takes the fresh answer's segments, climbing nothing", async () => {
    const hls = (token: string, from = 0): UpstreamStream => ({
      ...stream("hls-2", "video", "https://cdn.example/v/index.m3u8"),
      transport: { type: "segments", protocol: "hls", segments: [0, 1, 2].slice(from).map((i) => ({ url: `https://cdn.example/v/s${i}.ts?t=${token}`, durationSeconds: 2 })) },
    });
    const audio = (token: string): UpstreamStream => ({ ...hls(token), id: "hls-audio-0", kind: "audio", url: "https://cdn.example/a/index.m3u8" });
    let resolves = 0;
    const fresh = () => ({ ...media(++resolves), streams: [hls(`v${resolves}`), audio(`v${resolves}`)] });
    const refresh = createStreamRefresh({ reResolve: async () => fresh() });
    // video and audio refused together; the audio input holds a clip's segments only
    const [video, track] = await Promise.all([refresh(hls("v0")), refresh({ ...audio("v0"), transport: hls("v0", 1).transport })]);
    expect(video.transport.type === "segments" && video.transport.segments[0]!.url).toContain("t=v1");
    expect(track.transport.type === "segments" && track.transport.segments[0]!.url).toContain("t=v1");
    expect(resolves).toBe(1);
    // refused again with the fresh segments: the next rung (no next client here: refused)
    await expect(refresh(hls("v1"))).rejects.toSatisfy((err) => codeOf(err) === "upstream.refused");
  });

  it("a refusal of the re-resolved URL asks the next client, leaving out the refused one; then fails as refused", async () => {
    const avoidedAsked: string[][] = [];
    const refresh = createStreamRefresh({
      reResolve: async () => media(1),
      resolveAvoiding: async (clients) => {
        avoidedAsked.push(clients);
        return media(2, "ANDROID");
      },
    });
    const fresh = await refresh(stream("137", "video", "old"));
    const next = await refresh(fresh);
    expect(next.url).toContain("c=ANDROID");
    expect(avoidedAsked).toEqual([["VISIONOS"]]);
    expect(codeOf(await refresh(next).catch((e: unknown) => e))).toBe("upstream.refused");
  });

  it("with another egress, the third rung moves there (the same clients, in order) instead of leaving a client out; still once", async () => {
    const onEgress = (m: ResolvedMedia, id: string): ResolvedMedia => ({ ...m, egress: { id }, streams: m.streams.map((s) => ({ ...s, request: { egress: { id } } })) });
    const moved: string[] = [];
    let avoided = 0;
    const refresh = createStreamRefresh({
      reResolve: async () => onEgress(media(1), "proxy-1"),
      resolveOnOtherEgress: (refused) => {
        moved.push(refused);
        return Promise.resolve(onEgress(media(2), "proxy-2"));
      },
      resolveAvoiding: async () => {
        avoided++;
        return media(3, "ANDROID");
      },
    });
    const fresh = await refresh(stream("137", "video", "old"));
    const next = await refresh(fresh);
    expect(next.request?.egress?.id).toBe("proxy-2");
    expect(next.url).toContain("c=VISIONOS");
    expect(moved).toEqual(["proxy-1"]);
    expect(codeOf(await refresh(next).catch((e: unknown) => e))).toBe("upstream.refused");
    expect(avoided).toBe(0);
  });

  it("with no other egress to go to, the third rung is the next client", async () => {
    const refresh = createStreamRefresh({
      reResolve: async () => ({ ...media(1), streams: media(1).streams.map((s) => ({ ...s, request: { egress: { id: "proxy-1" } } })) }),
      resolveOnOtherEgress: () => null,
      resolveAvoiding: async () => media(2, "ANDROID"),
    });
    const fresh = await refresh(stream("137", "video", "old"));
    expect((await refresh(fresh)).url).toContain("c=ANDROID");
  });

  it("without a next client, the second refusal of a fresh URL fails as refused, after one resolve", async () => {
    let resolves = 0;
    const refresh = createStreamRefresh({ reResolve: async () => media(++resolves) });
    const fresh = await refresh(stream("137", "video", "old"));
    expect(codeOf(await refresh(fresh).catch((e: unknown) => e))).toBe("upstream.refused");
    expect(resolves).toBe(1);
  });

  it("matches on id and kind: a stream no longer listed fails as expired", async () => {
    const refresh = createStreamRefresh({ reResolve: async () => media(1, "VISIONOS", [stream("137", "audio", "https://cdn.test/x")]) });
    expect(codeOf(await refresh(stream("137", "video", "old")).catch((e: unknown) => e))).toBe("upstream.expired");
  });

  it("a failed resolve fails every refresh waiting on it", async () => {
    const refresh = createStreamRefresh({ reResolve: () => Promise.reject(new Error("resolve failed")) });
    const results = await Promise.allSettled([refresh(stream("137", "video", "old")), refresh(stream("140", "audio", "old"))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });

  it("names the client of googlevideo URLs only", () => {
    expect(clientOfStreamUrl("https://rr3---sn-abc.googlevideo.com/videoplayback?c=ANDROID")).toBe("ANDROID");
    expect(clientOfStreamUrl("https://cdn.example.test/file.mp4?c=ANDROID")).toBeNull();
    expect(clientOfStreamUrl("not a url")).toBeNull();
  });
});
