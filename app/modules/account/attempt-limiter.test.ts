import { expect, test } from "vitest";
import { createMemoryLimiter, hitAll } from "./attempt-limiter.server.ts";

const rule = { limit: 3, windowMs: 60_000 };

test("allows up to the limit in a window, then refuses with the seconds left, then resets", () => {
  let t = 1_000_000;
  const limiter = createMemoryLimiter(() => t);
  expect([1, 2, 3].map(() => limiter.hit("k", rule).allowed)).toEqual([true, true, true]);
  t += 15_000;
  expect(limiter.hit("k", rule)).toEqual({ allowed: false, retryAfterSeconds: 45 });
  expect(limiter.hit("other", rule).allowed).toBe(true);
  t += 45_000;
  expect(limiter.hit("k", rule).allowed).toBe(true);
});

test("hitAll counts every key, even after one refuses", () => {
  const limiter = createMemoryLimiter(() => 0);
  for (let i = 0; i < 3; i++) limiter.hit("ip", rule);
  expect(hitAll(limiter, [["ip", rule], ["email", rule]]).allowed).toBe(false);
  // the email key was still counted: two more make it refuse on its own
  limiter.hit("email", rule);
  limiter.hit("email", rule);
  expect(limiter.hit("email", rule).allowed).toBe(false);
});

test("ipLimitScale raises per-address limits only", () => {
  const rule = { limit: 2, windowMs: 60_000 };
  const limiter = createMemoryLimiter(() => 0, { ipLimitScale: 3 });
  for (let i = 0; i < 6; i++) expect(limiter.hit("signup:ip:127.0.0.1", rule).allowed).toBe(true);
  expect(limiter.hit("signup:ip:127.0.0.1", rule).allowed).toBe(false);
  expect(limiter.hit("signup:email:a@b.co", rule).allowed).toBe(true);
  expect(limiter.hit("signup:email:a@b.co", rule).allowed).toBe(true);
  expect(limiter.hit("signup:email:a@b.co", rule).allowed).toBe(false);
});
