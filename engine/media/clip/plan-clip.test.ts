import { describe, expect, it } from "vitest";
import { planFormat } from "../../formats.ts";
import type { ResolvedMedia, SegmentRef, UpstreamStream } from "../../types.ts";
import { clipInput, coveringSegments, recutSegments } from "./plan-clip.ts";

const segs = (n: number, d = 2): SegmentRef[] => Array.from({ length: n }, (_, i) => ({ url: `https://cdn.example/s${i}.ts`, durationSeconds: d }));

function mediaWith(streams: UpstreamStream[], durationSeconds = 120): ResolvedMedia {
  return {
    platform: "generic",
    sourceUrl: "https://cdn.example/v",
    details: { id: "v", title: "V", description: "", thumbnail: "", channelTitle: "", channelId: "", channelThumbnail: "", isMonetized: false, subscriberCount: "", publishedAt: "", duration: "2:00", viewCount: "", likeCount: "", tags: [], downloadUrl: "https://cdn.example/v", platform: "generic", durationSeconds, embedUrl: null },
    streams,
    thumbnails: [{ url: "https://cdn.example/t.jpg", width: 1280, height: 720 }],
    captions: [],
  };
}

const progressive: UpstreamStream = { id: "p", kind: "progressive", url: "https://cdn.example/v.mp4", transport: { type: "direct" }, container: "mp4", vcodec: "h264", acodec: "aac", width: 640, height: 360, contentLength: 12_000_000 };
const hls: UpstreamStream = { id: "h", kind: "progressive", url: "https://cdn.example/i.m3u8", transport: { type: "segments", protocol: "hls", segments: segs(60) }, container: "ts", vcodec: "h264", acodec: "aac", width: 640, height: 360, bitrate: 800_000 };

describe("covering segments", () => {
  it("are the segments a clip touches, and where the first one starts", () => {
    const { segments, first, offset } = coveringSegments(segs(60), 61, 71);
    expect(segments.map((s) => s.url)).toEqual([30, 31, 32, 33, 34, 35].map((i) => `https://cdn.example/s${i}.ts`));
    expect(first).toBe(30);
    expect(offset).toBe(60);
    expect(coveringSegments(segs(60), 0, 2).segments).toHaveLength(1);
    expect(coveringSegments(segs(60), 118.5, 120).segments.map((s) => s.url)).toEqual(["https://cdn.example/s59.ts"]);
  });

  it("are all of them when a segment's duration is unknown", () => {
    const unknown = [...segs(3), { url: "https://cdn.example/x.ts" }];
    expect(coveringSegments(unknown, 2, 4)).toEqual({ segments: unknown, first: 0, offset: 0 });
  });
});

describe("a clip's input after its segment URLs expired", () => {
  const signed = (n: number, token: string, d = 2): SegmentRef[] => segs(n, d).map((s) => ({ ...s, url: `${s.url}?t=${token}` }));
  const clipped = () => {
    const source = { ...hls, transport: { type: "segments" as const, protocol: "hls" as const, segments: signed(60, "old") } };
    const { stream } = clipInput(source, 61, 71);
    if (stream.transport.type !== "segments") throw new Error("not segmented");
    return stream.transport;
  };

  it("takes the same covering segments from the fresh manifest's list", () => {
    const input = clipped();
    expect(input.cut).toEqual({ first: 30, of: 60 });
    expect(recutSegments(input, signed(60, "new")).map((s) => s.url)).toEqual([30, 31, 32, 33, 34, 35].map((i) => `https://cdn.example/s${i}.ts?t=new`));
  });

  it("is expired when the fresh list is not the one the clip was cut from", () => {
    const input = clipped();
    expect(() => recutSegments(input, signed(61, "new"))).toThrow(expect.objectContaining({ code: "upstream.expired" }));
    expect(() => recutSegments(input, signed(60, "new", 2.5))).toThrow(expect.objectContaining({ code: "upstream.expired" }));
  });

  it("is the whole fresh list for an input that was not cut", () => {
    const fresh = signed(60, "new");
    expect(recutSegments({ type: "segments", protocol: "hls", segments: signed(60, "old") }, fresh)).toBe(fresh);
  });
});

describe("a clip's plan", () => {
  it("turns a file sent as it is into a cut, with an estimated size", () => {
    const plan = planFormat(mediaWith([progressive]), "mp4-360", { tags: false, start: 30, end: 60 });
    expect(plan).toMatchObject({ op: "remux", container: "mp4", clip: { start: 30, end: 60, seeks: [30], duration: 30, exact: false }, bytes: 3_000_000 });
  });

  it("keeps only the covering segments of a segmented input and seeks from the first", () => {
    const plan = planFormat(mediaWith([hls]), "mp3-128", { tags: false, start: 61, end: 71, exact: true });
    if (plan.op !== "transcode") throw new Error(plan.op);
    expect(plan.input.transport.type === "segments" && plan.input.transport.segments).toHaveLength(6);
    expect(plan.clip).toEqual({ start: 61, end: 71, seeks: [1], duration: 10, exact: true });
  });

  it("is the whole file's plan when the clip is the whole file", () => {
    expect(planFormat(mediaWith([progressive]), "mp4-360", { tags: false, start: 0, end: 120.4 })).toMatchObject({ op: "passthrough" });
  });

  it("refuses what the source cannot give with a 422", () => {
    const media = mediaWith([progressive]);
    expect(() => planFormat(media, "mp4-360", { tags: true, start: 120 })).toThrow(expect.objectContaining({ code: "clip.out_of_range", status: 422 }));
    expect(() => planFormat(media, "mp4-360", { tags: true, start: 10, end: 125 })).toThrow(expect.objectContaining({ code: "clip.out_of_range" }));
    expect(() => planFormat(media, "thumbnail-hd", { tags: true, start: 10, end: 20 })).toThrow(expect.objectContaining({ code: "clip.unavailable", status: 422 }));
    expect(() => planFormat(mediaWith([progressive], 0), "mp4-360", { tags: true, start: 10, end: 20 })).toThrow(expect.objectContaining({ code: "clip.unavailable" }));
  });
});
