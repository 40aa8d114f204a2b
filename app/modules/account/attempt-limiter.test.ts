import { describe } from "vitest";
import { createMemoryLimiter } from "./attempt-limiter.server.ts";
import { attemptLimiterContract } from "#tests/support/attempt-limiter-contract.ts";

describe("in-process attempt limiter", () => {
  attemptLimiterContract((now, opts) => createMemoryLimiter(now, opts));
});
