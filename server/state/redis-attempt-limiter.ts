import { limitFor, verdictFor, type AttemptLimiter } from "#app/lib/attempt-limiter.server.ts";
import type { RedisHandle } from "./redis-client.ts";

/**
 * Counts one attempt in the key's window, opening a new window when the last one ended. The
 * window's times come from the caller's clock (like the in-process limiter); Redis drops the key
 * when the window is over.
 */
const HIT_SCRIPT = `
local t = tonumber(ARGV[1])
local v = redis.call('HMGET', KEYS[1], 'count', 'resetAt')
local count = tonumber(v[1]) or 0
local resetAt = tonumber(v[2])
if not resetAt or resetAt <= t then
  count = 0
  resetAt = t + tonumber(ARGV[2])
end
count = count + 1
redis.call('HSET', KEYS[1], 'count', count, 'resetAt', string.format('%d', resetAt))
redis.call('PEXPIRE', KEYS[1], math.max(1, resetAt - t))
return {count, string.format('%d', resetAt)}`;

/** AttemptLimiter for REDIS_URL: login, signup, reset and billing attempts counted across instances. */
export function createRedisLimiter(redis: RedisHandle, now: () => number = Date.now, opts: { ipLimitScale?: number } = {}): AttemptLimiter {
  return {
    async hit(key, rule) {
      const t = now();
      const [count, resetAt] = (await redis.client.eval(HIT_SCRIPT, {
        keys: [`${redis.prefix}attempts:${key}`],
        arguments: [String(t), String(rule.windowMs)],
      })) as [number, string];
      return verdictFor(count, limitFor(key, rule, opts.ipLimitScale), Number(resetAt), t);
    },
  };
}
