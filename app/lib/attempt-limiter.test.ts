import { describe, expect, it } from "vitest";
import { createMemoryLimiter, withInProcessFallback, type AttemptLimiter } from "./attempt-limiter.server.ts";
import { attemptLimiterContract } from "#tests/support/attempt-limiter-contract.ts";

describe("in-process attempt limiter", () => {
  attemptLimiterContract((now, opts) => createMemoryLimiter(now, opts));
});

// issue 27 §18: a shared store that is down or hangs must not fail the login
describe("in-process fallback for a failing shared limiter", () => {
  const rule = { limit: 2, windowMs: 60_000 };
  const failing: AttemptLimiter = { hit: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")) };
  const hanging: AttemptLimiter = { hit: () => new Promise(() => {}) };

  it.each([
    ["fails", failing],
    ["hangs", hanging],
  ])("counts in this process when the store %s, and warns once", async (_, shared) => {
    const warnings: string[] = [];
    const limiter = withInProcessFallback(shared, { logger: { warn: (_obj, msg) => void warnings.push(msg) }, timeoutMs: 50 });
    const verdicts = [await limiter.hit("login:pair:a", rule), await limiter.hit("login:pair:a", rule), await limiter.hit("login:pair:a", rule)];
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, false]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/shared store failed/);
  });

  it("uses the shared store while it answers", async () => {
    const shared = createMemoryLimiter();
    const limiter = withInProcessFallback(shared, { logger: { warn: () => {} } });
    await limiter.hit("k", rule);
    await limiter.hit("k", rule);
    expect((await shared.hit("k", rule)).allowed).toBe(false);
  });
});
