import { describe, expect, it } from "vitest";
import { codecName, estimateSecondsLeft, formatBitrate, formatFileSize, formatTime, formatTimeLeft, outputFileName, parseTime, sheetTimes } from "./media-format.ts";

describe("times", () => {
  it("formats with hours only when needed", () => {
    expect(formatTime(7.25)).toBe("0:07.250");
    expect(formatTime(125)).toBe("2:05.000");
    expect(formatTime(3723.45)).toBe("1:02:03.450");
  });
  it("parses seconds, m:ss and h:mm:ss, and refuses the rest", () => {
    expect(parseTime("83.5")).toBe(83.5);
    expect(parseTime("1:23.5")).toBe(83.5);
    expect(parseTime("0:01:23.5")).toBe(83.5);
    expect(parseTime("1:75")).toBeNull();
    expect(parseTime("1.5:20")).toBeNull();
    expect(parseTime("abc")).toBeNull();
    expect(parseTime("")).toBeNull();
    expect(parseTime("-3")).toBeNull();
  });
});

describe("sizes and rates", () => {
  it("reads like a media player does", () => {
    expect(formatBitrate(128_000)).toBe("128 kb/s");
    expect(formatBitrate(2_345_678)).toBe("2.35 Mb/s");
    expect(formatBitrate(null)).toBe("unknown");
    expect(formatFileSize(999)).toBe("999 bytes");
    expect(formatFileSize(5_400_000)).toBe("5.4 MB");
    expect(formatFileSize(5_000_000_000)).toBe("5.00 GB");
  });
  it("names codecs", () => {
    expect(codecName("avc")).toBe("H.264 (AVC)");
    expect(codecName("pcm-s16")).toBe("PCM 16-bit");
    expect(codecName("pcm-f32be")).toBe("PCM 32-bit float big-endian");
    expect(codecName(null)).toBe("unknown codec");
  });
});

describe("outputFileName", () => {
  it("keeps the original name, made safe by the download rule", () => {
    expect(outputFileName("My clip.mov", " (trimmed)", "mp4")).toBe("My clip (trimmed).mp4");
    expect(outputFileName('a<b>:c?.webm', "", "mp3")).toBe("abc.mp3");
    expect(outputFileName("...mkv", "", "wav")).toBe("media.wav");
    expect(outputFileName("Holiday\u202E4pm.exe.mp4", "", "gif")).toBe("Holiday4pm.exe.gif");
  });
});

describe("progress", () => {
  it("estimates the time left once there is enough to go on", () => {
    expect(estimateSecondsLeft(0.01, 5000)).toBeNull();
    expect(estimateSecondsLeft(0.25, 10_000)).toBe(30);
    expect(estimateSecondsLeft(1, 10_000)).toBe(0);
    expect(formatTimeLeft(30)).toBe("about 30 s left");
    expect(formatTimeLeft(125)).toBe("about 2 min 5 s left");
    expect(formatTimeLeft(null)).toBe("estimating time left…");
  });
  it("spreads sheet frames evenly", () => {
    expect(sheetTimes(8, 4)).toEqual([1, 3, 5, 7]);
    expect(sheetTimes(4, 2, 10)).toEqual([11, 13]);
  });
});
