import { describe, expect, it } from "vitest";
import {
  formatCount,
  formatDuration,
  formatPublishedDate,
  formatSubscribers,
  formatViews,
  isMonetized,
  parseCount,
  parseIsoDuration,
  pickBestThumbnail,
  truncateDescription,
} from "./format.ts";

describe("formatCount", () => {
  it("keeps numbers below 1,000 plain", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(7)).toBe("7");
    expect(formatCount(999)).toBe("999");
  });
  it("uses K with one decimal from 1,000", () => {
    expect(formatCount(1000)).toBe("1.0K");
    expect(formatCount(1234)).toBe("1.2K");
    expect(formatCount(15_650)).toBe("15.7K");
    expect(formatCount(999_499)).toBe("999.5K");
  });
  it("uses M with one decimal from 1,000,000", () => {
    expect(formatCount(1_000_000)).toBe("1.0M");
    expect(formatCount(1_234_567)).toBe("1.2M");
    expect(formatCount(2_345_678_901)).toBe("2345.7M");
  });
  it("never prints 1000.0K", () => {
    expect(formatCount(999_960)).toBe("1.0M");
  });
});

describe("views and subscribers", () => {
  it("formats views", () => {
    expect(formatViews(1_234_567)).toBe("1.2M views");
    expect(formatViews(42)).toBe("42 views");
  });
  it("says Unknown for missing subscriber counts", () => {
    expect(formatSubscribers(null)).toBe("Unknown");
    expect(formatSubscribers(undefined)).toBe("Unknown");
    expect(formatSubscribers(2_500)).toBe("2.5K");
  });
});

describe("formatDuration", () => {
  it("uses m:ss below an hour", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(5)).toBe("0:05");
    expect(formatDuration(721)).toBe("12:01");
    expect(formatDuration(3599)).toBe("59:59");
  });
  it("uses h:mm:ss from an hour", () => {
    expect(formatDuration(3600)).toBe("1:00:00");
    expect(formatDuration(3723)).toBe("1:02:03");
    expect(formatDuration(36_000 + 59)).toBe("10:00:59");
  });
});

describe("formatPublishedDate", () => {
  it("formats an en-US short date in UTC", () => {
    expect(formatPublishedDate("2026-06-03T23:30:00Z")).toBe("Jun 3, 2026");
    expect(formatPublishedDate("2026-06-03T00:30:00-07:00")).toBe("Jun 3, 2026");
    expect(formatPublishedDate("2019-11-29T02:53:48.000Z")).toBe("Nov 29, 2019");
  });
  it("returns empty for missing or broken dates", () => {
    expect(formatPublishedDate(undefined)).toBe("");
    expect(formatPublishedDate("not a date")).toBe("");
  });
});

describe("truncateDescription", () => {
  it("keeps a text of 160 characters or fewer as it is", () => {
    expect(truncateDescription("short")).toBe("short");
    expect(truncateDescription("b".repeat(160))).toBe("b".repeat(160));
    expect(truncateDescription(undefined)).toBe("");
  });
  it("cuts a longer text between words, with an ellipsis, within 160 characters", () => {
    const words = "Learn how every download format works, from MP4 and WEBM to MP3, with examples for phones, laptops and smart TVs, and what to pick when storage is tight on your device.";
    const cut = truncateDescription(words);
    expect(Array.from(cut).length).toBeLessThanOrEqual(160);
    expect(cut.endsWith("…")).toBe(true);
    // what is kept ends on a whole word of the original
    const kept = cut.slice(0, -1);
    expect(words.startsWith(kept)).toBe(true);
    expect(words[kept.length]).toMatch(/[\s,]/);
  });
  it("cuts a single long word where the limit falls", () => {
    const long = "a".repeat(200);
    expect(truncateDescription(long)).toBe("a".repeat(159) + "…");
  });
  it("does not split an emoji", () => {
    const text = "x".repeat(158) + "😀😀😀";
    expect(truncateDescription(text)).toBe("x".repeat(158) + "😀…");
  });
});

describe("isMonetized", () => {
  it("needs more than 1000 subscribers and more than 4000 views", () => {
    expect(isMonetized(1001, 4001)).toBe(true);
    expect(isMonetized(1000, 1_000_000)).toBe(false);
    expect(isMonetized(1_000_000, 4000)).toBe(false);
    expect(isMonetized(null, 10_000)).toBe(false);
  });
});

describe("pickBestThumbnail", () => {
  it("prefers maxres, then high, medium, default (Data API map)", () => {
    const all = { default: { url: "d" }, medium: { url: "m" }, high: { url: "h" }, maxres: { url: "x" } };
    expect(pickBestThumbnail(all)).toBe("x");
    expect(pickBestThumbnail({ default: { url: "d" }, medium: { url: "m" }, high: { url: "h" } })).toBe("h");
    expect(pickBestThumbnail({ default: { url: "d" }, medium: { url: "m" } })).toBe("m");
    expect(pickBestThumbnail({ default: { url: "d" } })).toBe("d");
    expect(pickBestThumbnail({})).toBe("");
  });
  it("works on named thumbnail lists", () => {
    expect(
      pickBestThumbnail([
        { url: "d", name: "default" },
        { url: "h", name: "high" },
      ]),
    ).toBe("h");
    expect(pickBestThumbnail([{ url: "o", name: "other" }])).toBe("");
  });
});

describe("parseIsoDuration", () => {
  it("parses Data API durations", () => {
    expect(parseIsoDuration("PT12M1S")).toBe(721);
    expect(parseIsoDuration("PT1H2M3S")).toBe(3723);
    expect(parseIsoDuration("PT45S")).toBe(45);
    expect(parseIsoDuration("P1DT1H")).toBe(90_000);
    expect(parseIsoDuration("PT2H")).toBe(7200);
    expect(parseIsoDuration("P0D")).toBe(0);
  });
  it("returns 0 for junk", () => {
    expect(parseIsoDuration("12:01")).toBe(0);
    expect(parseIsoDuration("")).toBe(0);
  });
});

describe("parseCount", () => {
  it("reads string and number counts", () => {
    expect(parseCount("12345")).toBe(12345);
    expect(parseCount(12)).toBe(12);
    expect(parseCount("1,234")).toBe(1234);
    expect(parseCount(undefined)).toBeNull();
    expect(parseCount("abc")).toBeNull();
  });
});
