import { describe, expect, it } from "vitest";
import { carriesSubtitles, describeMediaOptions, mediaFields, mediaOptionsFor, takesNormalize } from "./media-options.ts";

const picked = {
  tags: false,
  clip: { start: 10, end: 40 },
  audioLanguage: "de",
  normalize: true,
  sponsorblock: { categories: ["sponsor" as const, "intro" as const], action: "cut" as const },
};

describe("media options per format", () => {
  it("take loudness with MP3, M4A and AAC only", () => {
    expect(["mp3-320", "mp3-256", "mp3-128", "aac-256", "m4a"].every(takesNormalize)).toBe(true);
    expect(["mp4-720", "webm", "opus", "thumbnail-hd", "srt"].some(takesNormalize)).toBe(false);
  });

  it("send an audio file everything picked, a video file all but loudness, any other file only the tags switch", () => {
    expect(mediaFields(mediaOptionsFor({ id: "mp3-128", icon: "audio" }, picked))).toEqual({
      tags: false,
      start: 10,
      end: 40,
      audioLanguage: "de",
      normalize: true,
      sponsorblock: { categories: ["sponsor", "intro"], action: "cut" },
    });
    expect(mediaFields(mediaOptionsFor({ id: "mp4-720", icon: "video" }, picked))).toEqual({
      tags: false,
      start: 10,
      end: 40,
      audioLanguage: "de",
      sponsorblock: { categories: ["sponsor", "intro"], action: "cut" },
    });
    expect(mediaFields(mediaOptionsFor({ id: "thumbnail-hd", icon: "image" }, picked))).toEqual({ tags: false });
  });

  it("send nothing for options left off, and no sponsorblock without a category", () => {
    expect(mediaFields(mediaOptionsFor({ id: "mp3-128", icon: "audio" }, { normalize: false, sponsorblock: { categories: [], action: "chapters" } }))).toEqual({});
  });

  it("send subtitles in the video with MP4 and WEBM only, and the split by chapter with every video and audio file", () => {
    const chosen = { subtitles: { language: "de", mode: "burn" as const }, chapters: "split" as const };
    expect(mediaFields(mediaOptionsFor({ id: "mp4-1080", icon: "video" }, chosen))).toEqual({ subtitles: { language: "de", mode: "burn" }, chapters: "split" });
    expect(mediaFields(mediaOptionsFor({ id: "webm", icon: "video" }, chosen))).toEqual({ subtitles: { language: "de", mode: "burn" }, chapters: "split" });
    expect(mediaFields(mediaOptionsFor({ id: "m4a", icon: "audio" }, chosen))).toEqual({ chapters: "split" });
    expect(mediaFields(mediaOptionsFor({ id: "aac-256", icon: "audio" }, chosen))).toEqual({ chapters: "split" });
    for (const id of ["thumbnail-hd", "transcript", "srt"]) expect(mediaFields(mediaOptionsFor({ id, icon: id === "thumbnail-hd" ? "image" : "text" }, chosen))).toEqual({});
    expect(["mp4-360", "mp4-2160", "webm"].every(carriesSubtitles)).toBe(true);
    expect(["mp3-128", "m4a", "srt"].some(carriesSubtitles)).toBe(false);
  });

  it("read as a few words for a queued download's label", () => {
    expect(describeMediaOptions(picked)).toEqual(["clip 0:10–0:40", "audio de", "loudness evened out", "sponsor, intro cut out", "bare"]);
    expect(describeMediaOptions({ clip: { start: 5, exact: true }, sponsorblock: { categories: ["outro"], action: "chapters" } })).toEqual(["clip 0:05–end exact", "outro marked as chapters"]);
    expect(describeMediaOptions({ subtitles: { language: "de", mode: "burn" }, chapters: "split" })).toEqual(["subtitles de burned in", "one file per chapter"]);
    expect(describeMediaOptions({ subtitles: { language: "fr", mode: "soft" } })).toEqual(["subtitles fr as a track"]);
    expect(describeMediaOptions({})).toEqual([]);
  });
});
