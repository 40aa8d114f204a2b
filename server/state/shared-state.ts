import type { Logger } from "pino";
import type { Store } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { createMemoryLimiter, type AttemptLimiter } from "#app/modules/account/attempt-limiter.server.ts";
import type { EngineStateFactory } from "#engine/state/types.ts";
import { connectRedis, type RedisHandle } from "./redis-client.ts";
import { createRedisLimiter } from "./redis-attempt-limiter.ts";
import { redisEngineState } from "./redis-engine-state.ts";

/**
 * Where the state that instances must agree on lives: in this process (the embedded default,
 * one instance) or in Redis (REDIS_URL, several instances behind a load balancer). Sessions,
 * accounts and data are in the database either way.
 */
export interface SharedState {
  /** "redis" when REDIS_URL is set */
  kind: "memory" | "redis";
  /** EngineDeps.state; undefined = the engine's in-process default */
  engineState?: EngineStateFactory;
  /** login, signup, reset and email-change attempts */
  accountLimiter: AttemptLimiter;
  /** checkout, verify and portal attempts */
  billingLimiter: AttemptLimiter;
  /** the blog's likes per address and article */
  blogLimiter: AttemptLimiter;
  /** an express-rate-limit store for the limiter named `name`; undefined = its in-process default */
  rateLimitStore(name: string): Store | undefined;
  close(): Promise<void>;
}

export async function createSharedState(opts: {
  redisUrl?: string;
  prefix: string;
  ipLimitScale: number;
  logger: Logger;
}): Promise<SharedState> {
  if (!opts.redisUrl) {
    return {
      kind: "memory",
      accountLimiter: createMemoryLimiter(Date.now, { ipLimitScale: opts.ipLimitScale }),
      billingLimiter: createMemoryLimiter(),
      blogLimiter: createMemoryLimiter(),
      rateLimitStore: () => undefined,
      close: async () => {},
    };
  }
  const redis: RedisHandle = await connectRedis({ url: opts.redisUrl, prefix: opts.prefix, logger: opts.logger });
  opts.logger.info({ prefix: opts.prefix }, "REDIS_URL is set: rate limits (blog likes included), admission, resolve cache, progress and link usage are shared through Redis");
  return {
    kind: "redis",
    engineState: redisEngineState({ redis, logger: opts.logger.child({ module: "engine-state" }) }),
    accountLimiter: createRedisLimiter(redis, Date.now, { ipLimitScale: opts.ipLimitScale }),
    billingLimiter: createRedisLimiter({ ...redis, prefix: `${opts.prefix}billing:` }),
    blogLimiter: createRedisLimiter({ ...redis, prefix: `${opts.prefix}blog:` }),
    rateLimitStore: (name) =>
      new RedisStore({
        prefix: `${opts.prefix}rl:${name}:`,
        sendCommand: (...args: string[]) => redis.client.sendCommand(args) as Promise<RedisReply>,
      }),
    close: () => redis.close(),
  };
}
