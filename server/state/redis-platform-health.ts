import type { PlatformHealthStore } from "#app/modules/platform-health/health-store.server.ts";
import { KEPT_OUTCOMES, type HealthOutcome } from "#app/modules/platform-health/health-rule.ts";
import type { RedisHandle } from "./redis-client.ts";

/** outcomes older than a day are of no use to the status window: a quiet platform's list goes */
const OUTCOMES_TTL_MS = 24 * 3600 * 1000;
/** the last success is kept longer: "last worked three days ago" is worth saying */
const LAST_SUCCESS_TTL_MS = 30 * 24 * 3600 * 1000;

/**
 * The platform health record in Redis (REDIS_URL): one list of the newest outcomes per platform
 * and its last success, so every instance answers `GET /api/v1/status` alike. Same contract as
 * memoryPlatformHealth (tests/support/platform-health-contract.ts).
 */
export function redisPlatformHealth(redis: RedisHandle): PlatformHealthStore {
  const key = (platform: string, part: string) => `${redis.prefix}health:${platform}:${part}`;
  return {
    async record(platform, outcome) {
      const multi = redis.client
        .multi()
        .lPush(key(platform, "outcomes"), JSON.stringify(outcome))
        .lTrim(key(platform, "outcomes"), 0, KEPT_OUTCOMES - 1)
        .pExpire(key(platform, "outcomes"), OUTCOMES_TTL_MS);
      // only a later success moves it (instances record in any order)
      if (outcome.ok) {
        multi.eval("local v = tonumber(redis.call('GET', KEYS[1]) or '0') if tonumber(ARGV[1]) > v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 0", {
          keys: [key(platform, "last-success")],
          arguments: [String(outcome.at), String(LAST_SUCCESS_TTL_MS)],
        });
      }
      await multi.exec();
    },
    async read(platform) {
      const [raw, last] = await Promise.all([redis.client.lRange(key(platform, "outcomes"), 0, -1), redis.client.get(key(platform, "last-success"))]);
      return { outcomes: raw.map((r) => JSON.parse(r) as HealthOutcome), lastSuccessAt: last === null ? null : Number(last) };
    },
  };
}
