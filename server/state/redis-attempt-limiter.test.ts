import { afterAll, beforeAll, describe } from "vitest";
import type { RedisHandle } from "./redis-client.ts";
import { createRedisLimiter } from "./redis-attempt-limiter.ts";
import { attemptLimiterContract } from "#tests/support/attempt-limiter-contract.ts";
import { dropPrefix, freshPrefix, redisAvailable, testRedis } from "#tests/support/redis.ts";

const available = await redisAvailable("the Redis attempt-limiter tests");
const prefix = freshPrefix();
let redis: RedisHandle;
let run = 0;

describe.runIf(available)("Redis attempt limiter", () => {
  beforeAll(async () => {
    redis = await testRedis(prefix);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.close();
  });
  // each test gets its own key space, like a fresh in-process limiter
  attemptLimiterContract((now, opts) => createRedisLimiter({ ...redis, prefix: `${prefix}${++run}:` }, now, opts));
});
