import { describe, expect, it } from "vitest";
import { createByteBudget, createConnectionRate, type ConnectionRate } from "./connection-rate.ts";
import { decideParallel, type ParallelPolicy } from "./parallel-tail.ts";

const MiB = 1024 * 1024;
const policy = (over: Partial<ParallelPolicy> = {}): ParallelPolicy => ({
  rangeConcurrency: 6,
  chunkBytes: 8 * MiB,
  probeBytes: 512 * 1024,
  throttledBelow: 8 * MiB,
  budget: createByteBudget(256 * MiB),
  ...over,
});

/** a connection opened at time 0 that delivered `bytes` (paused once, briefly, if asked); its rate is judged at `now` */
function measured(bytes: number, paused = false): ConnectionRate {
  const r = createConnectionRate(0);
  r.bytes(bytes);
  if (paused) {
    r.pause(1);
    r.resume(1);
  }
  return r;
}

describe("decideParallel", () => {
  it("goes parallel after a slow probe the consumer kept up with, reserving the window from the budget", () => {
    const budget = createByteBudget(256 * MiB);
    // 512 KiB in 500 ms: 1 MiB/s, throttled
    const plan = decideParallel(policy({ budget }), measured(512 * 1024), 20 * MiB, 500);
    expect(plan).not.toBeNull();
    expect(plan!.bytesPerSecond).toBeCloseTo(MiB, -3);
    expect(plan!.partBytes).toBe(MiB);
    expect(budget.reserved).toBe(7 * MiB);
    plan!.release();
    plan!.release();
    expect(budget.reserved).toBe(0);
  });

  it("stays sequential on a fast connection, a paused one, too little left, or before the probe said enough", () => {
    expect(decideParallel(policy(), measured(4 * MiB), 20 * MiB, 250)).toBeNull(); // 16 MiB/s: not throttled
    expect(decideParallel(policy(), measured(512 * 1024, true), 20 * MiB, 500)).toBeNull(); // the consumer was the limit
    expect(decideParallel(policy(), measured(512 * 1024), 100 * 1024, 500)).toBeNull(); // not two parts left
    expect(decideParallel(policy(), measured(100 * 1024), 20 * MiB, 500)).toBeNull(); // under half the probe
    expect(decideParallel(policy(), measured(512 * 1024), null, 500)).toBeNull(); // unknown length
    expect(decideParallel(policy({ rangeConcurrency: 1 }), measured(512 * 1024), 20 * MiB, 500)).toBeNull();
  });

  it("stays sequential when the memory budget has no room for the window", () => {
    const budget = createByteBudget(4 * MiB);
    expect(decideParallel(policy({ budget }), measured(512 * 1024), 20 * MiB, 500)).toBeNull();
    expect(budget.reserved).toBe(0);
  });
});
