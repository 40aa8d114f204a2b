import { describe, expect, it } from "vitest";
import { utcToZonedLocal, zonedLocalToUtc } from "./time-zone.ts";

describe("a typed local time in the visitor's zone", () => {
  it("is the instant it names, in winter and summer time", () => {
    expect(zonedLocalToUtc("2026-11-27T09:30", "Europe/Berlin")?.toISOString()).toBe("2026-11-27T08:30:00.000Z");
    expect(zonedLocalToUtc("2026-07-01T09:30", "Europe/Berlin")?.toISOString()).toBe("2026-07-01T07:30:00.000Z");
    expect(zonedLocalToUtc("2026-11-27T09:30", "America/New_York")?.toISOString()).toBe("2026-11-27T14:30:00.000Z");
    expect(zonedLocalToUtc("2026-11-27T09:30", "Asia/Kolkata")?.toISOString()).toBe("2026-11-27T04:00:00.000Z");
    expect(zonedLocalToUtc("2026-11-27T09:30", "UTC")?.toISOString()).toBe("2026-11-27T09:30:00.000Z");
  });

  it("round-trips through the value an input shows", () => {
    const at = new Date("2026-03-29T01:15:00Z");
    expect(zonedLocalToUtc(utcToZonedLocal(at, "Europe/London"), "Europe/London")?.toISOString()).toBe(at.toISOString());
  });

  it("refuses a malformed time or an unknown zone", () => {
    expect(zonedLocalToUtc("tomorrow", "UTC")).toBeNull();
    expect(zonedLocalToUtc("2026-13-01T09:30", "UTC")).toBeNull();
    expect(zonedLocalToUtc("2026-11-27T09:30", "Mars/Olympus")).toBeNull();
  });
});
