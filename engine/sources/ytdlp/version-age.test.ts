import { describe, expect, it } from "vitest";
import { staleYtdlpWarning, ytdlpAgeDays, ytdlpReleaseDate } from "./version-age.ts";

const today = new Date("2026-11-27T03:30:00Z");

describe("yt-dlp's version is its release date", () => {
  it.each([
    ["2023.03.04", "2023-03-04"],
    ["2026.11.01", "2026-11-01"],
    ["2023.03.04.1", "2023-03-04"],
    ["2026.11.20.232800", "2026-11-20"],
    [" 2026.01.02\n", "2026-01-02"],
  ])("%j was released on %s", (version, day) => {
    expect(ytdlpReleaseDate(version)?.toISOString().slice(0, 10)).toBe(day);
  });

  it.each(["", "stable@2026.11.01", "2026.11", "2026.13.01", "2023.02.30", "v2026.11.01", "2026.11.01-dev"])("%j names no date", (version) => {
    expect(ytdlpReleaseDate(version)).toBeNull();
  });
});

describe("the age check against today", () => {
  it("counts whole days since the release", () => {
    expect(ytdlpAgeDays("2026.11.27", today)).toBe(0);
    expect(ytdlpAgeDays("2026.11.26", today)).toBe(1);
    expect(ytdlpAgeDays("2026.09.28", today)).toBe(60);
    expect(ytdlpAgeDays("2023.03.04", today)).toBe(1364);
    // a nightly built later than our clock says: not negative
    expect(ytdlpAgeDays("2026.11.28.010000", today)).toBe(0);
    expect(ytdlpAgeDays("unknown", today)).toBeNull();
  });

  it("warns past 60 days, saying how old and how to update", () => {
    expect(staleYtdlpWarning("2026.09.28", today)).toBeNull();
    expect(staleYtdlpWarning("2026.11.20.232800", today)).toBeNull();
    const warning = staleYtdlpWarning("2026.09.27", today);
    expect(warning).toMatch(/^yt-dlp 2026\.09\.27 is 61 days old \(more than 60\)/);
    expect(warning).toContain("deploy/fetch-yt-dlp.mjs");
    expect(warning).toContain("pip install -U yt-dlp");
    expect(warning).toContain("yt-dlp -U");
    expect(staleYtdlpWarning("2023.03.04", today)).toMatch(/^yt-dlp 2023\.03\.04 is 1364 days old/);
  });

  it("says nothing about a version it cannot date", () => {
    expect(staleYtdlpWarning("something else", today)).toBeNull();
  });
});
