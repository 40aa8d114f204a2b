import { describe, expect, it } from "vitest";
import { checkClip, clipSize, NO_CLIP } from "./clip-choice.ts";

const clip = (start: string, end: string, exact = false) => ({ start, end, exact });

describe("the picker's clip", () => {
  it("empty fields are the whole file", () => {
    expect(checkClip(NO_CLIP, 600)).toEqual({ ok: true, clip: null, start: 0, end: 600 });
  });

  it("sends only the bounds typed, in seconds", () => {
    expect(checkClip(clip("1:02", "1:32"), 600)).toMatchObject({ ok: true, clip: { start: 62, end: 92 } });
    expect(checkClip(clip("9:30", "", true), 600)).toMatchObject({ ok: true, clip: { start: 570, exact: true }, end: 600 });
    expect(checkClip(clip("", "45"), 600)).toMatchObject({ ok: true, clip: { end: 45 }, start: 0 });
  });

  it("says what is wrong, next to the field it is wrong in", () => {
    expect(checkClip(clip("soon", ""), 600)).toEqual({ ok: false, field: "start", message: "Type the start as a time, like 1:02:03 or 90." });
    expect(checkClip(clip("", "1:75"), 600)).toMatchObject({ ok: false, field: "end" });
    expect(checkClip(clip("2:00", "1:00"), 600)).toEqual({ ok: false, field: "end", message: "The end must come after the start." });
    expect(checkClip(clip("10:00", ""), 600)).toEqual({ ok: false, field: "start", message: "The start is past the end of the video. The video is 10:00 long." });
    expect(checkClip(clip("1:00", "10:02"), 600)).toMatchObject({ ok: false, field: "end" });
    // a length the server does not know is checked there
    expect(checkClip(clip("1:00:00", ""), 0)).toMatchObject({ ok: true, clip: { start: 3600 } });
  });

  it("a clip's size is its share of the file's, shown as an estimate", () => {
    expect(clipSize(60_000_000, checkClip(clip("0:00", "1:00"), 600), 600)).toBe("~6.0 MB");
    expect(clipSize(60_000_000, checkClip(NO_CLIP, 600), 600)).toBeNull();
    expect(clipSize(null, checkClip(clip("0:00", "1:00"), 600), 600)).toBeNull();
  });
});
