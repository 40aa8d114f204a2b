import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "./rate-limiter.server.ts";

describe("in-memory rate limiter", () => {
  it("allows `limit` attempts per key and window, then says when to come back", () => {
    const limiter = createMemoryRateLimiter({ limit: 3, windowMs: 60_000 });
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.take("1.2.3.4 article", t0 + i)).toEqual({ ok: true });
    expect(limiter.take("1.2.3.4 article", t0 + 10_000)).toEqual({ ok: false, retryAfterSeconds: 50 });
    // another key has its own count
    expect(limiter.take("1.2.3.4 other-article", t0 + 10_000)).toEqual({ ok: true });
    // a new window starts once the old one is over
    expect(limiter.take("1.2.3.4 article", t0 + 60_000)).toEqual({ ok: true });
  });

  it("keeps at most maxKeys windows, forgetting the oldest first", () => {
    const limiter = createMemoryRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    expect(limiter.take("a", 0).ok).toBe(true);
    expect(limiter.take("b", 1).ok).toBe(true);
    expect(limiter.take("a", 2).ok).toBe(false);
    // "c" pushes out "a", the oldest; "b" is still limited
    expect(limiter.take("c", 3).ok).toBe(true);
    expect(limiter.take("b", 4).ok).toBe(false);
    expect(limiter.take("a", 5).ok).toBe(true);
  });
});
