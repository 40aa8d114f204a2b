import { describe, expect, it } from "vitest";
import { rangeSizing, splitRange } from "./range-plan.ts";

describe("range plan", () => {
  it("cuts an inclusive range into consecutive parts, the last one shorter", () => {
    const parts = splitRange("https://cdn.example/v.mp4", 100, 349, 100);
    expect(parts.map((p) => p.range)).toEqual([
      { start: 100, end: 199 },
      { start: 200, end: 299 },
      { start: 300, end: 349 },
    ]);
    expect(new Set(parts.map((p) => p.url))).toEqual(new Set(["https://cdn.example/v.mp4"]));
  });

  it("a range smaller than a part is one part", () => {
    expect(splitRange("u", 0, 0, 1024).map((p) => p.range)).toEqual([{ start: 0, end: 0 }]);
  });
});

describe("range sizing", () => {
  it("probes about an eighth of a file (64 KiB to 512 KiB) and cuts about two parts per connection (≤ 1 MiB)", () => {
    expect(rangeSizing(8 << 20, 600_000, 6)).toEqual({ probeBytes: 75_000, partBytes: 65_536 });
    expect(rangeSizing(8 << 20, 10_000_000, 6)).toEqual({ probeBytes: 512 * 1024, partBytes: 833_333 });
    expect(rangeSizing(8 << 20, 1e9, 6)).toEqual({ probeBytes: 512 * 1024, partBytes: 1024 * 1024 });
    expect(rangeSizing(8 << 20, null, 6)).toEqual({ probeBytes: 512 * 1024, partBytes: 1024 * 1024 });
  });

  it("never exceeds the configured chunk size", () => {
    expect(rangeSizing(128 * 1024, 1e9, 4)).toEqual({ probeBytes: 128 * 1024, partBytes: 128 * 1024 });
  });
});
