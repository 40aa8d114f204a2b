import { describe, expect, it } from "vitest";
import { formatBytes as cardBytes } from "#engine/formats.ts";
import { SpeedMeter, formatBytes, formatSpeed, percentOf } from "./format-bytes.ts";

describe("progress numbers", () => {
  it("format byte counts", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1500)).toBe("1.5 KB");
    expect(formatBytes(12_400_000)).toBe("12.4 MB");
    expect(formatBytes(250_000_000)).toBe("250 MB");
    expect(formatBytes(-1)).toBe("0 B");
    expect(formatSpeed(2_000_000)).toBe("2.0 MB/s");
  });

  it("give whole percents only when the total is known", () => {
    expect(percentOf(50, 200)).toBe(25);
    expect(percentOf(199, 200)).toBe(99);
    expect(percentOf(300, 200)).toBe(100);
    expect(percentOf(10, null)).toBeNull();
    expect(percentOf(10, 0)).toBeNull();
  });

  it("smooth the speed over samples", () => {
    const m = new SpeedMeter(0.5);
    expect(m.sample(0, 0)).toBe(0);
    expect(m.sample(1000, 1000)).toBe(1000);
    // instant 3000 B/s → halfway between 1000 and 3000
    expect(m.sample(4000, 2000)).toBe(2000);
    // no time passed: unchanged
    expect(m.sample(9000, 2000)).toBe(2000);
  });
});

describe("one unit for sizes", () => {
  it("the card, the progress bar and the history say the same size for the same file", () => {
    // 30,932,471 bytes: the card said 30.9 MB and the bar 29.5 MB of the same file
    for (const bytes of [0, 812, 31_000_000, 30_932_471, 1_234_567_890]) expect(formatBytes(bytes)).toBe(cardBytes(bytes));
    expect(formatBytes(30_932_471)).toBe("30.9 MB");
  });
});
