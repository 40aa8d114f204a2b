import { describe, expect, it } from "vitest";
import { createRetryBudget } from "./retry-budget.ts";

const cut = new Error("socket hang up");
const permanent = new Error("gone");

describe("createRetryBudget", () => {
  it("waits twice as long after each failure in a row, then gives up", () => {
    const budget = createRetryBudget({ maxRetries: 3, retryDelayMs: 100, retryable: () => true });
    expect([budget.next(cut), budget.next(cut), budget.next(cut), budget.next(cut)]).toEqual([100, 200, 400, null]);
    expect(budget.failures).toBe(3);
  });

  it("progress between failures starts the count again", () => {
    const budget = createRetryBudget({ maxRetries: 2, retryDelayMs: 10, retryable: () => true });
    budget.next(cut);
    budget.next(cut);
    budget.progressed();
    expect(budget.failures).toBe(0);
    expect(budget.next(cut)).toBe(10);
  });

  it("a failure that is not worth retrying ends the read at once", () => {
    const budget = createRetryBudget({ maxRetries: 5, retryDelayMs: 10, retryable: (err) => err !== permanent });
    expect(budget.next(permanent)).toBeNull();
    expect(budget.failures).toBe(0);
  });
});
