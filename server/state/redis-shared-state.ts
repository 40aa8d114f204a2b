import type { Logger } from "pino";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { connectRedis, type RedisHandle } from "./redis-client.ts";
import { createRedisLimiter } from "./redis-attempt-limiter.ts";
import { redisEngineState } from "./redis-engine-state.ts";
import { redisPlatformHealth } from "./redis-platform-health.ts";
import type { SharedState } from "./shared-state.ts";

/** The shared state in Redis (REDIS_URL set); imported by createSharedState only in that case. */
export async function createRedisSharedState(opts: { redisUrl: string; prefix: string; ipLimitScale: number; logger: Logger }): Promise<SharedState> {
  const redis: RedisHandle = await connectRedis({ url: opts.redisUrl, prefix: opts.prefix, logger: opts.logger });
  opts.logger.info({ prefix: opts.prefix }, "REDIS_URL is set: rate limits (blog likes included), admission, resolve cache, progress, link usage and platform health are shared through Redis");
  return {
    kind: "redis",
    engineState: redisEngineState({ redis, logger: opts.logger.child({ module: "engine-state" }) }),
    accountLimiter: createRedisLimiter(redis, Date.now, { ipLimitScale: opts.ipLimitScale }),
    billingLimiter: createRedisLimiter({ ...redis, prefix: `${opts.prefix}billing:` }),
    blogLimiter: createRedisLimiter({ ...redis, prefix: `${opts.prefix}blog:` }),
    platformHealth: redisPlatformHealth(redis),
    rateLimitStore: (name) =>
      new RedisStore({
        prefix: `${opts.prefix}rl:${name}:`,
        sendCommand: (...args: string[]) => redis.client.sendCommand(args) as Promise<RedisReply>,
      }),
    close: () => redis.close(),
  };
}
