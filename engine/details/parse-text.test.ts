import { describe, expect, it } from "vitest";
import { parseAbbreviatedCount, parseDateText } from "./parse-text.ts";

describe("parseAbbreviatedCount", () => {
  it("reads suffixed and grouped counts", () => {
    expect(parseAbbreviatedCount("23.2k subscribers")).toBe(23_200);
    expect(parseAbbreviatedCount("1.5M subscribers")).toBe(1_500_000);
    expect(parseAbbreviatedCount("2B")).toBe(2_000_000_000);
    expect(parseAbbreviatedCount("12,916 views")).toBe(12_916);
    expect(parseAbbreviatedCount("712 subscribers")).toBe(712);
  });
  it("returns null without a number", () => {
    expect(parseAbbreviatedCount("No views")).toBeNull();
    expect(parseAbbreviatedCount(undefined)).toBeNull();
  });
});

describe("parseDateText", () => {
  it("reads US and UK forms with prefixes", () => {
    expect(parseDateText("Jun 3, 2026")?.toISOString()).toBe("2026-06-03T00:00:00.000Z");
    expect(parseDateText("28 Jan 2015")?.toISOString()).toBe("2015-01-28T00:00:00.000Z");
    expect(parseDateText("Premiered Sep 12, 2024")?.toISOString()).toBe("2024-09-12T00:00:00.000Z");
    expect(parseDateText("Streamed live on 1 March 2023")?.toISOString()).toBe("2023-03-01T00:00:00.000Z");
    expect(parseDateText("2019-11-29")?.toISOString()).toBe("2019-11-29T00:00:00.000Z");
  });
  it("returns null for relative or empty text", () => {
    expect(parseDateText("11 years ago")).toBeNull();
    expect(parseDateText("")).toBeNull();
  });
});
