import { describe, expect, it } from "vitest";
import type { UpstreamStream } from "../types.ts";
import { parseRange, requestCeiling, segmentsInFlight } from "./run-plan.ts";

describe("parseRange", () => {
  it.each([
    ["bytes=0-99", 1000, { start: 0, end: 99 }],
    ["bytes=500-", 1000, { start: 500, end: 999 }],
    ["bytes=-100", 1000, { start: 900, end: 999 }],
    ["bytes=-5000", 1000, { start: 0, end: 999 }],
    ["bytes=900-5000", 1000, { start: 900, end: 999 }],
  ] as const)("%s of %i", (header, total, expected) => {
    expect(parseRange(header, total)).toEqual(expected);
  });

  it.each([
    ["bytes=1000-", 1000],
    ["bytes=5-2", 1000],
    ["bytes=-0", 1000],
  ] as const)("%s of %i is not satisfiable", (header, total) => {
    expect(parseRange(header, total)).toBe("invalid");
  });

  it("serves the whole file for no, multiple or odd ranges, or an unknown size", () => {
    expect(parseRange(undefined, 1000)).toBeNull();
    expect(parseRange("bytes=0-1,5-6", 1000)).toBeNull();
    expect(parseRange("items=0-1", 1000)).toBeNull();
    expect(parseRange("bytes=-", 1000)).toBeNull();
    expect(parseRange("bytes=0-99", null)).toBeNull();
  });
});

describe("segmentsInFlight", () => {
  const of = (...durations: (number | undefined)[]) => durations.map((durationSeconds) => ({ durationSeconds }));
  it("fetches a third more of short segments at once, by the median duration", () => {
    expect(segmentsInFlight(6, of(1, 1, 1, 0.5))).toBe(8);
    expect(segmentsInFlight(6, of(2, 2, 4))).toBe(8);
    expect(segmentsInFlight(6, of(4, 4, 4, 1))).toBe(6);
    expect(segmentsInFlight(12, of(1))).toBe(16);
  });
  it("leaves the configured number alone when durations are unknown, and never raises one in flight", () => {
    expect(segmentsInFlight(6, of(undefined, undefined))).toBe(6);
    expect(segmentsInFlight(6, [])).toBe(6);
    expect(segmentsInFlight(1, of(1, 1))).toBe(1);
  });
});

describe("requestCeiling", () => {
  const MiB = 1024 * 1024;
  const direct = (maxRequestBytes?: number): UpstreamStream => ({ id: "v", kind: "progressive", url: "https://cdn.example/v.mp4", container: "mp4", transport: { type: "direct", ...(maxRequestBytes ? { maxRequestBytes } : {}) } });
  it("lets a plain file's requests grow to 64 MiB, and a platform's stream to its own limit", () => {
    expect(requestCeiling(direct(), undefined)).toBe(64 * MiB);
    expect(requestCeiling(direct(10 * MiB), undefined)).toBe(10 * MiB);
  });
  it("keeps the engine's configured ceiling when it is lower", () => {
    expect(requestCeiling(direct(10 * MiB), 16 * 1024)).toBe(16 * 1024);
    expect(requestCeiling(direct(), 128 * MiB)).toBe(128 * MiB);
  });
});
