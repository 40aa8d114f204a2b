import { expect, it } from "vitest";
import { hitAll, type AttemptLimiter } from "#app/lib/attempt-limiter.server.ts";

/**
 * The attempt limiter's behaviour, run against the in-process limiter and the Redis one.
 * `make(now, opts)` builds a limiter with a fresh key space.
 */
export function attemptLimiterContract(make: (now: () => number, opts?: { ipLimitScale?: number }) => AttemptLimiter): void {
  const rule = { limit: 3, windowMs: 60_000 };
  const allowed = async (limiter: AttemptLimiter, key: string, r = rule) => (await limiter.hit(key, r)).allowed;

  it("allows up to the limit in a window, then refuses with the seconds left, then resets", async () => {
    let t = 1_700_000_000_000;
    const limiter = make(() => t);
    expect([await allowed(limiter, "k"), await allowed(limiter, "k"), await allowed(limiter, "k")]).toEqual([true, true, true]);
    t += 15_000;
    expect(await limiter.hit("k", rule)).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect(await allowed(limiter, "other")).toBe(true);
    t += 45_000;
    expect(await allowed(limiter, "k")).toBe(true);
  });

  it("hitAll counts every key, even after one refuses", async () => {
    const limiter = make(() => 1_700_000_000_000);
    for (let i = 0; i < 3; i++) await limiter.hit("ip", rule);
    expect((await hitAll(limiter, [["ip", rule], ["email", rule]])).allowed).toBe(false);
    // the email key was still counted: two more make it refuse on its own
    await limiter.hit("email", rule);
    await limiter.hit("email", rule);
    expect(await allowed(limiter, "email")).toBe(false);
  });

  it("ipLimitScale raises per-address limits only", async () => {
    const r = { limit: 2, windowMs: 60_000 };
    const limiter = make(() => 1_700_000_000_000, { ipLimitScale: 3 });
    for (let i = 0; i < 6; i++) expect(await allowed(limiter, "signup:ip:127.0.0.1", r)).toBe(true);
    expect(await allowed(limiter, "signup:ip:127.0.0.1", r)).toBe(false);
    expect(await allowed(limiter, "signup:email:a@b.co", r)).toBe(true);
    expect(await allowed(limiter, "signup:email:a@b.co", r)).toBe(true);
    expect(await allowed(limiter, "signup:email:a@b.co", r)).toBe(false);
  });
}
