import { afterAll, beforeAll, describe } from "vitest";
import type { RedisHandle } from "./redis-client.ts";
import { redisPlatformHealth } from "./redis-platform-health.ts";
import { platformHealthContract } from "#tests/support/platform-health-contract.ts";
import { dropPrefix, freshPrefix, redisAvailable, testRedis } from "#tests/support/redis.ts";

const available = await redisAvailable("the Redis platform health tests");
const prefix = freshPrefix();
let redis: RedisHandle;
let run = 0;

describe.runIf(available)("Redis platform health record", () => {
  beforeAll(async () => {
    redis = await testRedis(prefix);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.close();
  });
  platformHealthContract(() => redisPlatformHealth({ ...redis, prefix: `${prefix}${++run}:` }));
});
