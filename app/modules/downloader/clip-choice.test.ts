import { describe, expect, it } from "vitest";
import { checkClip, clipSize, frameSrc, NO_CLIP, playerTimeText, previewStart } from "./clip-choice.ts";

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

describe("the clip's first frame and the player's time", () => {
  it("previews a start the visitor set inside the video, nothing else", () => {
    expect(previewStart(clip("1:02:03", ""), 4000)).toBe(3723);
    expect(previewStart(clip("0", ""), 600)).toBe(0);
    expect(previewStart(NO_CLIP, 600)).toBeNull();
    expect(previewStart(clip("soon", ""), 600)).toBeNull();
    expect(previewStart(clip("10:00", ""), 600)).toBeNull();
    expect(previewStart(clip("1:00", ""), 0)).toBeNull();
  });

  it("asks the frame endpoint for the link at the start, in seconds", () => {
    expect(frameSrc("https://www.youtube.com/watch?v=abc&t=5", 62.5)).toBe("/api/v1/frame?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3Dabc%26t%3D5&t=62.5");
  });

  it("writes the player's time to the millisecond, inside the video", () => {
    expect(playerTimeText(3.0034567, 600)).toBe("0:03.003");
    expect(playerTimeText(3723, 4000)).toBe("1:02:03");
    expect(playerTimeText(612.4, 600)).toBe("10:00");
    expect(playerTimeText(-0.2, 600)).toBe("0:00");
  });
});
