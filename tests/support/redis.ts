import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { connectRedis, type RedisHandle } from "#server/state/redis-client.ts";

/** The Redis the shared-state tests use: TEST_REDIS_URL, REDIS_URL, else the local default. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** true when Redis answers; otherwise prints a visible notice (the suite using it is skipped) */
export async function redisAvailable(suite: string): Promise<boolean> {
  const client = createClient({ url: TEST_REDIS_URL, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    console.warn(`[notice] Redis does not answer on ${TEST_REDIS_URL}: ${suite} is skipped.`);
    return false;
  } finally {
    await client.disconnect().catch(() => {});
  }
}

/** A fresh key prefix per run, so runs (and engineers) sharing one Redis never see each other's keys. */
export function freshPrefix(): string {
  return `vidfetch-test:${randomUUID().slice(0, 8)}:`;
}

/** Deletes every key under `prefix` (the end of a test run). */
export async function dropPrefix(redis: RedisHandle, prefix: string): Promise<void> {
  for await (const key of redis.client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) await redis.client.del(key);
}

export const noLog = { warn() {}, error() {} };

export async function testRedis(prefix: string): Promise<RedisHandle> {
  return connectRedis({ url: TEST_REDIS_URL, prefix, logger: noLog });
}
