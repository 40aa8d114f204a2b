import { describe, expect, it } from "vitest";
import { createAdaptiveParallelism } from "./adaptive-parallelism.ts";

/** Feeds `rate` bytes/s for one window of 400 ms, starved or not, starting at `t`. */
function window(p: ReturnType<typeof createAdaptiveParallelism>, t: number, rate: number, starved: boolean): number {
  for (let ms = 0; ms <= 400; ms += 50) {
    p.bytes((rate * 50) / 1000, t + ms);
    if (starved) p.starved(t + ms);
  }
  return t + 400;
}

describe("adaptive parallelism", () => {
  it("adds connections while each one adds throughput, up to the maximum", () => {
    const p = createAdaptiveParallelism({ start: 2, max: 5 });
    let t = 0;
    // a per-connection throttle: throughput is level × 1 MB/s
    for (let i = 0; i < 10; i++) t = window(p, t, p.level * 1e6, true);
    expect(p.level).toBe(5);
  });

  it("stops at the first connection that adds nothing (the limit is not per connection)", () => {
    const p = createAdaptiveParallelism({ start: 2, max: 8 });
    let t = 0;
    // the link saturates at 3 MB/s whatever the number of connections
    for (let i = 0; i < 12; i++) t = window(p, t, Math.min(3, p.level) * 1e6, true);
    expect(p.level).toBe(4);
    const settled = p.level;
    for (let i = 0; i < 5; i++) t = window(p, t, 10e6, true);
    expect(p.level).toBe(settled);
  });

  it("never grows while the consumer is the bottleneck", () => {
    const p = createAdaptiveParallelism({ start: 2, max: 8 });
    let t = 0;
    for (let i = 0; i < 10; i++) t = window(p, t, p.level * 1e6, false);
    expect(p.level).toBe(2);
  });
});
