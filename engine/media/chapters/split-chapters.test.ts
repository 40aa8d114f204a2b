import { describe, expect, it } from "vitest";
import { chapterArchiveName, chapterPieces, checkSplitFormat, pieceFileName } from "./split-chapters.ts";

const chapters = [
  { title: "Intro", start: 0, end: 10 },
  { title: "Verse", start: 10, end: 40 },
  { title: "Outro", start: 40, end: 60 },
];

describe("chapterPieces", () => {
  it("gives every chapter, numbered, without a range", () => {
    expect(chapterPieces(chapters)).toEqual([
      { position: 1, title: "Intro", start: 0, end: 10 },
      { position: 2, title: "Verse", start: 10, end: 40 },
      { position: 3, title: "Outro", start: 40, end: 60 },
    ]);
  });

  it("keeps the chapters a range reaches, cut to it, numbered from 1", () => {
    expect(chapterPieces(chapters, { start: 5, end: 30 })).toEqual([
      { position: 1, title: "Intro", start: 5, end: 10 },
      { position: 2, title: "Verse", start: 10, end: 30 },
    ]);
    // a range that ends where a chapter starts does not reach it; one that starts inside the last reaches only it
    expect(chapterPieces(chapters, { end: 40 }).map((p) => p.title)).toEqual(["Intro", "Verse"]);
    expect(chapterPieces(chapters, { start: 45 })).toEqual([{ position: 1, title: "Outro", start: 45, end: 60 }]);
  });

  it("leaves out a sliver the range leaves of a chapter, never a whole chapter however short", () => {
    expect(chapterPieces(chapters, { start: 9.8, end: 30 }).map((p) => p.title)).toEqual(["Verse"]);
    const short = [{ title: "Blink", start: 0, end: 0.2 }, ...chapters.slice(1).map((c, i) => (i === 0 ? { ...c, start: 0.2 } : c))];
    expect(chapterPieces(short).map((p) => p.title)).toEqual(["Blink", "Verse", "Outro"]);
  });

  it("leaves out a chapter SponsorBlock's cuts take (almost) all of", () => {
    const cuts = [
      { category: "sponsor" as const, start: 0, end: 9.9 },
      { category: "outro" as const, start: 50, end: 60 },
    ];
    expect(chapterPieces(chapters, {}, cuts)).toEqual([
      { position: 1, title: "Verse", start: 10, end: 40 },
      { position: 2, title: "Outro", start: 40, end: 60 },
    ]);
  });

  it("is chapters.unavailable for a video without chapters, or when nothing is left", () => {
    for (const none of [undefined, []]) expect(() => chapterPieces(none)).toThrow(expect.objectContaining({ code: "chapters.unavailable", status: 422 }));
    expect(() => chapterPieces(chapters, {}, [{ category: "sponsor", start: 0, end: 60 }])).toThrow(expect.objectContaining({ code: "chapters.unavailable" }));
  });
});

describe("names", () => {
  it("numbers each file to the count's width, two digits at least", () => {
    expect(pieceFileName({ position: 1, title: "Intro", start: 0, end: 1 }, 3, "mp3")).toBe("01 - Intro.mp3");
    expect(pieceFileName({ position: 7, title: " ", start: 0, end: 1 }, 120, "mp4")).toBe("007.mp4");
  });

  it("names the ZIP after the whole file", () => {
    expect(chapterArchiveName("Café (720p).mp4")).toBe("Café (720p) - chapters.zip");
    expect(chapterArchiveName("Song (128 kbps).mp3")).toBe("Song (128 kbps) - chapters.zip");
  });

  it("refuses formats without a timeline", () => {
    for (const format of ["thumbnail-hd", "transcript", "srt", "vtt"] as const) {
      expect(() => checkSplitFormat(format)).toThrow(expect.objectContaining({ code: "chapters.unavailable", message: expect.stringContaining("Only video and audio files") }));
    }
    for (const format of ["mp4-360", "mp4-2160", "webm", "mp3-128", "m4a", "aac-256"] as const) expect(() => checkSplitFormat(format)).not.toThrow();
  });
});
