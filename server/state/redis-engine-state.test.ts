import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RedisHandle } from "./redis-client.ts";
import { redisAdmission, redisEngineState, redisLinkUsage } from "./redis-engine-state.ts";
import { engineStateContract, until } from "#tests/support/engine-state-contract.ts";
import { dropPrefix, freshPrefix, noLog, redisAvailable, testRedis } from "#tests/support/redis.ts";

const available = await redisAvailable("the Redis engine-state tests");
const prefix = freshPrefix();
let redis: RedisHandle;

describe.runIf(available)("Redis engine state", () => {
  beforeAll(async () => {
    redis = await testRedis(prefix);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.close();
  });
  engineStateContract("Redis state", {
    make: (limits, now = Date.now) => redisEngineState({ redis, logger: noLog, progressIntervalMs: 50 })({ limits, now }),
    shared: true,
  });
});

describe.runIf(available)("Redis admission after an instance dies", () => {
  it("the slots of an instance that stopped renewing them are free again after the lease", async () => {
    const prefix2 = freshPrefix();
    const dying = await testRedis(prefix2);
    const survivor = await testRedis(prefix2);
    const limits = { maxConcurrent: 1, perIpPerHour: 0, perIpConcurrent: 1, perLinkConcurrent: 1 };
    const a = redisAdmission({ redis: dying, logger: noLog, limits, now: Date.now, leaseMs: 300 });
    const b = redisAdmission({ redis: survivor, logger: noLog, limits, now: Date.now, leaseMs: 300 });
    try {
      await a.acquire();
      await a.acquireStream("192.0.2.1", "dl_dead");
      // renewals keep a live instance's slot past its first lease
      await new Promise((r) => setTimeout(r, 500));
      expect((await b.acquire().then(() => "granted", (e: Error) => e.message))).not.toBe("granted");
      await dying.client.disconnect(); // the instance is gone: no release, no renewal
      expect(await until(async () => b.acquire().then(() => true, () => false), 2000)).toBe(true);
      expect(await until(async () => b.acquireStream("192.0.2.1", "dl_dead").then(() => true, () => false), 2000)).toBe(true);
    } finally {
      await b.close();
      await dropPrefix(survivor, prefix2);
      await survivor.close();
    }
  });
});

describe.runIf(available)("Redis link usage keys", () => {
  it("bytes counted after a link expired leave no key behind", async () => {
    const prefix3 = freshPrefix();
    const handle = await testRedis(prefix3);
    const usage = redisLinkUsage({ redis: handle, logger: noLog });
    try {
      await usage.admit("dl_short", "full", Date.now() + 150);
      usage.addBytes("dl_short", 1000); // written in a batch, after the link is gone
      await new Promise((r) => setTimeout(r, 900));
      expect(await handle.client.exists(`${prefix3}link:dl_short`)).toBe(0);
    } finally {
      await usage.close();
      await dropPrefix(handle, prefix3);
      await handle.close();
    }
  });
});
