import { describe, expect, it } from "vitest";
import type { Cue } from "./parse-timedtext.ts";
import { cuesOnOutput, GAP_TEXT, subtitleSrt } from "./subtitle-file.ts";

const cue = (start: number, end: number, text = `at ${start}`): Cue => ({ startMs: start * 1000, endMs: end * 1000, text });
const times = (cues: Cue[]) => cues.map((c) => [c.startMs / 1000, c.endMs / 1000]);

describe("cues on the output's timeline", () => {
  it("stay where they are in a whole file, each ending by the next one's start (as the SRT download has them)", () => {
    expect(times(cuesOnOutput([cue(1, 3), cue(2.5, 4), cue(6, 6)]))).toEqual([
      [1, 2.5],
      [2.5, 4],
      [6, 8],
    ]);
  });

  it("move to a clip's start: a cue at 12 s of a clip from 10 s is at 2 s", () => {
    const clip = { start: 10, duration: 10 };
    expect(times(cuesOnOutput([cue(5, 7), cue(12, 14), cue(25, 27)], clip))).toEqual([[2, 4]]);
  });

  it("are trimmed to the clip: one that began before it shows from its first frame, one that runs past its end stops there", () => {
    const clip = { start: 10, duration: 5 };
    expect(times(cuesOnOutput([cue(9, 11), cue(14, 17)], clip))).toEqual([
      [0, 1],
      [4, 5],
    ]);
    // what is left of a cue ending as the clip starts is too short to show
    expect(cuesOnOutput([cue(9, 10.01)], clip)).toEqual([]);
  });

  it("close up over SponsorBlock's cuts: later cues move back by what was cut before them, a cue inside a cut is gone", () => {
    const cuts = [{ start: 5, end: 8 }];
    expect(times(cuesOnOutput([cue(2, 4), cue(5.5, 7.5), cue(7, 9), cue(10, 12)], undefined, cuts))).toEqual([
      [2, 4],
      // 7-9 keeps what is after the cut: 8-9, at 5-6
      [5, 6],
      [7, 9],
    ]);
  });

  it("take a clip and its cuts together: the cuts are on the clip's timeline", () => {
    // a clip from 10 s; a cut of its 2-4 s (the source's 12-14 s)
    expect(times(cuesOnOutput([cue(15, 16)], { start: 10, duration: 10 }, [{ start: 2, end: 4 }]))).toEqual([[3, 4]]);
  });
});

describe("the SRT ffmpeg reads", () => {
  it("is an SRT of the cues, with no blank line inside a cue and no empty cue", () => {
    const srt = subtitleSrt([cue(1, 2, "one\n\ntwo"), cue(3, 4, "  "), cue(5, 6, "three")], "webvtt");
    expect(srt).toBe("1\n00:00:01,000 --> 00:00:02,000\none\ntwo\n\n2\n00:00:05,000 --> 00:00:06,000\nthree\n");
  });

  it("fills an MP4 track's gaps with cues of no visible text, so each cue ends where it should", () => {
    const srt = subtitleSrt([cue(1, 2, "one"), cue(2, 3, "two"), cue(5, 6, "three")], "mov_text");
    expect(srt.split("\n\n").map((block) => block.split("\n").slice(1).join("|"))).toEqual([
      "00:00:01,000 --> 00:00:02,000|one",
      "00:00:02,000 --> 00:00:03,000|two",
      `00:00:03,000 --> 00:00:05,000|${GAP_TEXT}`,
      "00:00:05,000 --> 00:00:06,000|three|",
    ]);
  });

  it("escapes braces and backslashes for a burn, which libass would read as override tags", () => {
    expect(subtitleSrt([cue(1, 2, "{laughs} a\\N b")], "burn")).toContain("\\{laughs\\} a\\\\N b\n");
    expect(subtitleSrt([cue(1, 2, "{laughs}")], "webvtt")).toContain("{laughs}\n");
  });
});
