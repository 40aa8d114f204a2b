import { describe, expect, it } from "vitest";
import { DEFAULT_MEDIA_OPTIONS, type MediaOptions } from "../media/options/media-options.ts";
import type { SkipSegment } from "../media/sponsorblock/segments.ts";
import type { MediaPlan, ResolvedMedia } from "../types.ts";
import { planChapterSplit } from "./chapter-archive.ts";

/** a 100 s YouTube video of two direct MP4 streams with three chapters */
function video(chapters: ResolvedMedia["chapters"] = [
  { title: "Intro", start: 0, end: 20 },
  { title: "Main", start: 20, end: 80 },
  { title: "Outro", start: 80, end: 100 },
]): ResolvedMedia {
  const url = "https://www.youtube.com/watch?v=aBcDeFgHiJk";
  return {
    platform: "youtube",
    sourceUrl: url,
    details: {
      ...{ id: "aBcDeFgHiJk", title: "Talk", description: "", thumbnail: "", channelTitle: "Channel", channelId: "UC1", channelThumbnail: "", isMonetized: false },
      ...{ subscriberCount: "Unknown", publishedAt: "Jun 3, 2026", duration: "1:40", viewCount: "", likeCount: "", tags: [], downloadUrl: url, platform: "youtube", durationSeconds: 100, embedUrl: null },
    },
    streams: [
      { id: "134", kind: "video", url: "https://media.example/134", transport: { type: "direct" }, container: "mp4", vcodec: "h264", width: 640, height: 360, bitrate: 300_000, contentLength: 3_750_000 },
      { id: "140", kind: "audio", url: "https://media.example/140", transport: { type: "direct" }, container: "m4a", acodec: "aac", bitrate: 128_000, contentLength: 1_600_000 },
    ],
    thumbnails: [],
    captions: [],
    ...(chapters ? { chapters } : {}),
  };
}

const split: MediaOptions = { ...DEFAULT_MEDIA_OPTIONS, chapters: "split" };
const clipOf = (plan: MediaPlan) => (plan.op === "remux" || plan.op === "transcode" ? plan.clip : undefined);
const cutsOf = (plan: MediaPlan) => (plan.op === "remux" || plan.op === "transcode" ? plan.cuts : undefined);
const tagsOf = (plan: MediaPlan) => (plan.op === "remux" || plan.op === "transcode" || plan.op === "passthrough" ? plan.tags?.fields : undefined);

describe("planChapterSplit", () => {
  it("plans one clip per chapter, named and tagged after it", () => {
    const parts = planChapterSplit(video(), "mp3-128", split, null);
    expect(parts.map((p) => p.fileName)).toEqual(["01 - Intro.mp3", "02 - Main.mp3", "03 - Outro.mp3"]);
    expect(parts.map((p) => [clipOf(p.plan)?.start, clipOf(p.plan)?.end])).toEqual([
      [0, 20],
      [20, 80],
      [80, 100],
    ]);
    expect(tagsOf(parts[1]!.plan)).toMatchObject({ title: "Main", album: "Talk", track: { number: 2, total: 3 }, artist: "Channel" });
    // a tagged piece's size counts its own tag, the whole file's share otherwise
    const whole = planChapterSplit(video(), "mp3-128", { ...split, tags: false }, null);
    expect(parts.every((p, i) => p.plan.bytes! > whole[i]!.plan.bytes!)).toBe(true);
  });

  it("keeps exact for every piece and the range's chapters only", () => {
    const parts = planChapterSplit(video(), "mp4-360", { ...split, start: 10, end: 50, exact: true }, null);
    expect(parts.map((p) => [p.fileName, clipOf(p.plan)?.start, clipOf(p.plan)?.end, clipOf(p.plan)?.exact])).toEqual([
      ["01 - Intro.mp4", 10, 20, true],
      ["02 - Main.mp4", 20, 50, true],
    ]);
  });

  it("cuts SponsorBlock's segments out of each chapter, and leaves out a chapter they take whole", () => {
    const segments: SkipSegment[] = [
      { category: "sponsor", start: 30, end: 40 },
      { category: "outro", start: 80, end: 100 },
    ];
    const parts = planChapterSplit(video(), "mp3-128", { ...split, sponsorblock: { categories: ["sponsor", "outro"], action: "cut" } }, segments);
    expect(parts.map((p) => p.fileName)).toEqual(["01 - Intro.mp3", "02 - Main.mp3"]);
    // on the clip's own timeline: 30-40 s of the video is 10-20 s of "Main"
    expect(parts.map((p) => cutsOf(p.plan))).toEqual([undefined, [{ start: 10, end: 20 }]]);
  });

  it("marked as chapters, SponsorBlock's segments are files of their own, nothing cut", () => {
    const segments: SkipSegment[] = [{ category: "sponsor", start: 30, end: 40 }];
    const parts = planChapterSplit(video(), "m4a", { ...split, sponsorblock: { categories: ["sponsor"], action: "chapters" } }, segments);
    expect(parts.map((p) => [p.fileName, clipOf(p.plan)?.start, clipOf(p.plan)?.end])).toEqual([
      ["01 - Intro.m4a", 0, 20],
      ["02 - Main.m4a", 20, 30],
      ["03 - Sponsor.m4a", 30, 40],
      ["04 - Main.m4a", 40, 80],
      ["05 - Outro.m4a", 80, 100],
    ]);
    expect(parts.some((p) => cutsOf(p.plan))).toBe(false);
  });

  it("is chapters.unavailable for a video without chapters, whatever SponsorBlock says, and for a thumbnail", () => {
    const marked = { ...split, sponsorblock: { categories: ["sponsor" as const], action: "chapters" as const } };
    expect(() => planChapterSplit(video([]), "mp4-360", marked, [{ category: "sponsor", start: 30, end: 40 }])).toThrow(expect.objectContaining({ code: "chapters.unavailable" }));
    expect(() => planChapterSplit(video(), "thumbnail-hd", split, null)).toThrow(expect.objectContaining({ code: "chapters.unavailable" }));
  });
});
