import type { Logger } from "pino";
import type { Store } from "express-rate-limit";
import { createMemoryLimiter, type AttemptLimiter } from "#app/lib/attempt-limiter.server.ts";
import { memoryPlatformHealth, type PlatformHealthStore } from "#app/modules/platform-health/health-store.server.ts";
import type { EngineStateFactory } from "#engine/state/types.ts";

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
  /** each platform's recent outcomes, for GET /api/v1/status */
  platformHealth: PlatformHealthStore;
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
      platformHealth: memoryPlatformHealth(),
      rateLimitStore: () => undefined,
      close: async () => {},
    };
  }
  // Redis's client (~35 MB of resident memory once imported) loads only when REDIS_URL is set
  const { createRedisSharedState } = await import("./redis-shared-state.ts");
  return createRedisSharedState({ ...opts, redisUrl: opts.redisUrl });
}
