import { describe, expect, it } from "vitest";
import { createByteBudget, createConnectionRate } from "./connection-rate.ts";

describe("connection rate", () => {
  it("measures bytes per second over the time the consumer did not pause the connection", () => {
    const rate = createConnectionRate(0);
    rate.bytes(512 * 1024);
    expect(rate.rate(100)).toBeNull(); // too soon to tell
    rate.pause(500);
    rate.resume(1500); // a second the consumer held it: not the upstream's time
    rate.bytes(512 * 1024);
    expect(rate.rate(2000)).toBeCloseTo(1024 * 1024, -3);
    expect(rate.everPaused).toBe(true);
  });

  it("knows nothing before enough bytes arrived", () => {
    const rate = createConnectionRate(0);
    rate.bytes(1000);
    expect(rate.rate(5000)).toBeNull();
    expect(rate.everPaused).toBe(false);
  });
});

describe("byte budget", () => {
  it("reserves whole windows until the budget is used up, and gives them back once", () => {
    const budget = createByteBudget(10);
    const a = budget.tryReserve(6);
    expect(a).not.toBeNull();
    expect(budget.tryReserve(6)).toBeNull();
    const b = budget.tryReserve(4);
    expect(budget.reserved).toBe(10);
    a!();
    a!();
    expect(budget.reserved).toBe(4);
    b!();
    expect(budget.reserved).toBe(0);
  });
});
