import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { EngineError } from "#engine/errors.ts";
import type { DownloadProgress } from "#engine/index.ts";
import { withLocalFallback } from "#engine/state/local-fallback.ts";
import type { AdmissionLimits, AdmissionStore, EngineState, EngineStateFactory, LinkUsageStore, ProgressStore, ResolveCacheStore } from "#engine/state/types.ts";
import type { ResolvedMedia } from "#engine/types.ts";
import type { RedisHandle } from "./redis-client.ts";

/**
 * The engine's state in Redis (REDIS_URL), so every instance behind the load balancer sees the
 * same admission counts, resolve cache, progress and link usage. Same contracts as
 * engine/state/memory.ts; the same test suite runs against both (tests/support/engine-state-contract.ts).
 */

const HOUR_MS = 60 * 60 * 1000;
/** seconds a client is asked to wait when its IP or link already streams the maximum */
const STREAM_CAP_RETRY_AFTER_SECONDS = 5;
/** a streaming slot lives this long unless its instance renews it: a killed instance frees its slots */
const DEFAULT_LEASE_MS = 30_000;
const PROGRESS_RETAIN_MS = 30 * 60 * 1000;
const PROGRESS_INTERVAL_MS = 250;
/** served bytes of a link are written in batches, not per chunk */
const LINK_FLUSH_MS = 500;
const RESUME_BUDGET_FACTOR = 2;

/** Takes one slot in each zset unless one of them is full; expired slots (dead instances) are swept first. */
const ACQUIRE_SCRIPT = `
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local limit = tonumber(ARGV[3 + i])
  if limit > 0 then
    local n = redis.call('ZCARD', key)
    if n >= limit then return {i, n} end
  end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('PEXPIREAT', key, ARGV[2])
end
return {0, 0}`;

/** Counts one start per IP in a sliding hour (or only checks when ARGV[5] is 0). */
const HOURLY_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {1, n, oldest[2]}
end
if ARGV[5] == '1' then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
end
return {0, n, '0'}`;

/** Creates a link's usage on first sight (expiring with the link), then says whether this request may run. */
const ADMIT_SCRIPT = `
local epoch = redis.call('GET', KEYS[2])
if not epoch then
  -- the state was lost (a restart without persistence, a flush): links made before now are unknown
  redis.call('SET', KEYS[2], ARGV[4])
  epoch = ARGV[4]
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  -- a link's making time is known to the second (its expiry is): the second of the epoch passes
  if tonumber(ARGV[5]) + 1000 <= tonumber(epoch) then return {3, '0', epoch} end
  redis.call('HSET', KEYS[1], 'served', 0)
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
end
local v = redis.call('HMGET', KEYS[1], 'size', 'served', 'completed')
if ARGV[1] == 'full' and v[3] == '1' then return {1, '0', '0'} end
if ARGV[1] == 'resume' and v[1] and tonumber(v[2]) >= tonumber(v[1]) * tonumber(ARGV[3]) then return {2, v[2], v[1]} end
return {0, '0', '0'}`;

const ADD_SERVED_SCRIPT = "if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'served', ARGV[1]) end return 0";

/** Sets a download's state when it exists (a stream that failed on an instance that never saw it start). */
const FINISH_SCRIPT = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local p = cjson.decode(v)
p.state = ARGV[1]
if ARGV[3] ~= '' then p.error = cjson.decode(ARGV[3]) else p.error = nil end
local out = cjson.encode(p)
redis.call('SET', KEYS[1], out, 'PX', ARGV[2])
redis.call('PUBLISH', KEYS[1], out)
return 1`;

type Log = Pick<Logger, "warn">;

export interface RedisStateOptions {
  redis: RedisHandle;
  logger: Log;
  /** streaming-slot lease (tests shorten it) */
  leaseMs?: number;
  progressIntervalMs?: number;
}

function evalScript(redis: RedisHandle, script: string, keys: string[], args: Array<string | number>): Promise<unknown> {
  return redis.client.eval(script, { keys, arguments: args.map(String) });
}

export function redisAdmission(opts: RedisStateOptions & { limits: AdmissionLimits; now: () => number }): AdmissionStore & { close(): Promise<void> } {
  const { redis, limits, now } = opts;
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  const key = (...parts: string[]) => `${redis.prefix}adm:${parts.join(":")}`;
  /** slots this instance holds: member → keys, renewed until released */
  const held = new Map<string, string[]>();
  const renew = setInterval(
    () => {
      if (held.size === 0) return;
      const expiry = now() + leaseMs;
      const multi = redis.client.multi();
      for (const [member, keys] of held) {
        for (const k of keys) {
          multi.zAdd(k, { score: expiry, value: member }, { XX: true });
          multi.pExpireAt(k, expiry);
        }
      }
      multi.exec().catch((err: unknown) => opts.logger.warn({ err }, "could not renew download slots in redis"));
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  renew.unref();

  async function take(keys: string[], limitsFor: number[]): Promise<{ refusedAt: number; count: number; release: () => void }> {
    const member = randomUUID();
    const [refusedAt, count] = (await evalScript(redis, ACQUIRE_SCRIPT, keys, [now(), now() + leaseMs, member, ...limitsFor])) as [number, number];
    if (refusedAt !== 0) return { refusedAt, count, release: () => {} };
    held.set(member, keys);
    let released = false;
    return {
      refusedAt: 0,
      count: 0,
      release: () => {
        if (released) return;
        released = true;
        held.delete(member);
        const multi = redis.client.multi();
        for (const k of keys) multi.zRem(k, member);
        // a failed release is healed by the lease running out
        multi.exec().catch((err: unknown) => opts.logger.warn({ err }, "could not release a download slot in redis"));
      },
    };
  }

  async function hourly(ip: string, count: boolean): Promise<string | null> {
    if (limits.perIpPerHour <= 0) return null;
    const t = now();
    const member = `${t}:${randomUUID()}`;
    const [refused, n, oldest] = (await evalScript(redis, HOURLY_SCRIPT, [key("hour", ip)], [t, HOUR_MS, limits.perIpPerHour, member, count ? 1 : 0])) as [number, number, string];
    if (refused === 1) {
      const retryAfter = Math.max(1, Math.ceil((Number(oldest) + HOUR_MS - t) / 1000));
      throw new EngineError("download.rate_limited", { retryAfter, detail: `${ip}: ${n} downloads in the last hour` });
    }
    return count ? member : null;
  }

  return {
    async check(ip) {
      await hourly(ip, false);
    },
    async hit(ip) {
      const member = await hourly(ip, true);
      if (member === null) return () => {};
      let refunded = false;
      return () => {
        if (refunded) return;
        refunded = true;
        redis.client.zRem(key("hour", ip), member).catch((err: unknown) => opts.logger.warn({ err }, "could not refund a download start in redis"));
      };
    },
    async acquire() {
      const r = await take([key("streams")], [limits.maxConcurrent]);
      if (r.refusedAt !== 0) {
        throw new EngineError("download.busy", { retryAfter: limits.busyRetryAfterSeconds ?? 5, detail: `${r.count} downloads streaming` });
      }
      return r.release;
    },
    async acquireStream(ip, linkId) {
      const r = await take([key("ip", ip), key("link", linkId)], [limits.perIpConcurrent, limits.perLinkConcurrent]);
      if (r.refusedAt !== 0) {
        const who = r.refusedAt === 1 ? ip : linkId;
        throw new EngineError("download.rate_limited", { retryAfter: STREAM_CAP_RETRY_AFTER_SECONDS, detail: `${who}: ${r.count} streams running` });
      }
      return r.release;
    },
    async close() {
      clearInterval(renew);
      const multi = redis.client.multi();
      for (const [member, keys] of held) for (const k of keys) multi.zRem(k, member);
      held.clear();
      await multi.exec().catch(() => {});
    },
  };
}

/** the largest resolve kept in Redis: every instance reads it whole (a link of 20,000 segments is about 2 MB) */
const MAX_SHARED_RESOLVE_BYTES = 4 * 1024 * 1024;

export function redisResolveCache(opts: RedisStateOptions & { now: () => number }): ResolveCacheStore {
  const { redis, now } = opts;
  const key = (k: string) => `${redis.prefix}resolve:${k}`;
  return {
    async get(k) {
      const raw = await redis.client.get(key(k));
      return raw ? (JSON.parse(raw) as ResolvedMedia) : undefined;
    },
    async set(k, media, expiresAt) {
      const ttl = Math.floor(expiresAt - now());
      if (ttl <= 0) return;
      const json = JSON.stringify(media);
      // a link of many segments is resolved again rather than kept (issue 27, finding 4)
      if (json.length > MAX_SHARED_RESOLVE_BYTES) return;
      await redis.client.set(key(k), json, { PX: ttl });
    },
    async delete(k) {
      await redis.client.del(key(k));
    },
    async clear() {
      // shared with other instances: one instance closing leaves their cache alone
    },
  };
}

interface LocalProgress {
  progress: DownloadProgress;
  lastEmit: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Progress as a key (the current value, for a late subscriber) and a channel of the same name
 * (changes): the stream may run on one instance and the SSE request land on another. The
 * instance that streams keeps the count locally and writes at most every `intervalMs`.
 */
export function redisProgress(opts: RedisStateOptions & { now: () => number }): ProgressStore & { close(): Promise<void> } {
  const { redis, now } = opts;
  const intervalMs = opts.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const key = (id: string) => `${redis.prefix}progress:${id}`;
  const local = new Map<string, LocalProgress>();
  const warn = (err: unknown) => opts.logger.warn({ err }, "could not write download progress to redis");

  const write = (id: string, p: DownloadProgress, publish: boolean) => {
    const json = JSON.stringify(p);
    const multi = redis.client.multi().set(key(id), json, { PX: PROGRESS_RETAIN_MS });
    if (publish) multi.publish(key(id), json);
    multi.exec().catch(warn);
  };
  const emit = (id: string, e: LocalProgress) => {
    e.lastEmit = now();
    if (e.timer) {
      clearTimeout(e.timer);
      e.timer = null;
    }
    write(id, { ...e.progress }, true);
  };

  return {
    create(id, total) {
      write(id, { bytes: 0, total, state: "queued" }, false);
    },
    start(id, total, offset = 0) {
      const previous = local.get(id);
      if (previous?.timer) clearTimeout(previous.timer);
      const e: LocalProgress = { progress: { bytes: offset, total, state: "streaming" }, lastEmit: 0, timer: null };
      local.set(id, e);
      emit(id, e);
    },
    addBytes(id, n) {
      const e = local.get(id);
      if (!e) return;
      e.progress.bytes += n;
      if (now() - e.lastEmit >= intervalMs) emit(id, e);
      else if (!e.timer) {
        e.timer = setTimeout(() => emit(id, e), intervalMs);
        e.timer.unref();
      }
    },
    setFiles(id, files) {
      const e = local.get(id);
      if (!e) return;
      e.progress.files = files;
      emit(id, e);
    },
    finish(id, state, error) {
      const failure = state === "failed" ? error : undefined;
      const e = local.get(id);
      if (e) {
        local.delete(id);
        e.progress.state = state;
        if (failure) e.progress.error = failure;
        else delete e.progress.error;
        emit(id, e);
        return;
      }
      evalScript(redis, FINISH_SCRIPT, [key(id)], [state, PROGRESS_RETAIN_MS, failure ? JSON.stringify(failure) : ""]).catch(warn);
    },
    async subscribe(id, fn) {
      const sub = await redis.subscriber();
      const channel = key(id);
      // subscribe before reading, so no change falls between the read and the subscription
      let current: DownloadProgress | null = null;
      const early: DownloadProgress[] = [];
      const listener = (message: string) => {
        const p = JSON.parse(message) as DownloadProgress;
        if (current === null) early.push(p);
        else fn(p);
      };
      await sub.subscribe(channel, listener);
      let raw: string | null;
      try {
        raw = await redis.client.get(channel);
      } catch (err) {
        await sub.unsubscribe(channel, listener).catch(() => {});
        throw err;
      }
      if (raw === null) {
        await sub.unsubscribe(channel, listener).catch(() => {});
        throw new EngineError("download.not_found");
      }
      current = JSON.parse(raw) as DownloadProgress;
      fn(current);
      for (const p of early) fn(p);
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        sub.unsubscribe(channel, listener).catch(warn);
      };
    },
    async close() {
      for (const e of local.values()) if (e.timer) clearTimeout(e.timer);
      local.clear();
    },
  };
}

/**
 * Since when Redis knows every link's usage (epoch ms). Set when an instance starts and no
 * marker exists (a fresh or emptied Redis), and by the admit script when the marker vanished
 * while instances ran (a restart without persistence): a link made before it and unknown to
 * Redis is refused, since it may have been used up (issue 27, finding 18; decision 041).
 */
const linkEpochKey = (redis: RedisHandle) => `${redis.prefix}link-epoch`;

/**
 * Link usage as one hash per link, expiring with the link. Served bytes are added in batches
 * (every LINK_FLUSH_MS), so the resume budget may lag a running stream by that much.
 */
export function redisLinkUsage(opts: RedisStateOptions): LinkUsageStore & { close(): Promise<void> } {
  const { redis } = opts;
  const key = (id: string) => `${redis.prefix}link:${id}`;
  const epochKey = linkEpochKey(redis);
  const pending = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  const flush = async () => {
    timer = null;
    if (pending.size === 0) return;
    const multi = redis.client.multi();
    // only into a link's existing hash: a late batch must not recreate an expired link without its expiry
    for (const [id, n] of pending) multi.eval(ADD_SERVED_SCRIPT, { keys: [key(id)], arguments: [String(n)] });
    pending.clear();
    await multi.exec().catch((err: unknown) => opts.logger.warn({ err }, "could not record served bytes in redis"));
  };
  return {
    async admit(id, kind, expiresAtMs, issuedAtMs = Number.MAX_SAFE_INTEGER) {
      const [verdict, served, size] = (await evalScript(redis, ADMIT_SCRIPT, [key(id), epochKey], [kind, Math.floor(expiresAtMs), RESUME_BUDGET_FACTOR, Date.now(), Math.floor(issuedAtMs)])) as [
        number,
        string,
        string,
      ];
      // made before Redis lost what it knew of links: it may have been used up (decision 041)
      if (verdict === 3) throw new EngineError("download.link_expired", { detail: `${id}: made before the link state was lost at ${size}` });
      if (verdict === 1) throw new EngineError("download.link_used", { detail: `${id}: already downloaded in full` });
      if (verdict === 2) throw new EngineError("download.link_used", { detail: `${id}: served ${served} bytes of a ${size}-byte file` });
    },
    async setSize(id, bytes) {
      if (bytes === null || bytes <= 0) return;
      // only a link admitted before (the hash exists) records a size
      await redis.client.eval("if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'size', ARGV[1]) end return 0", { keys: [key(id)], arguments: [String(bytes)] });
    },
    addBytes(id, n) {
      pending.set(id, (pending.get(id) ?? 0) + n);
      if (!timer) {
        timer = setTimeout(() => void flush(), LINK_FLUSH_MS);
        timer.unref();
      }
    },
    async complete(id) {
      await flush();
      await redis.client.eval("if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'completed', '1') end return 0", { keys: [key(id)], arguments: [] });
    },
    async close() {
      if (timer) clearTimeout(timer);
      await flush();
    },
  };
}

/** EngineDeps.state for REDIS_URL: every concern shared through `redis`. */
export function redisEngineState(opts: RedisStateOptions): EngineStateFactory {
  // A Redis without the marker may have lost links' usage: links made before now are refused.
  // Looked at on start and on every reconnect (a restart without persistence comes back empty),
  // so links made after the restart are not mistaken for older ones.
  const markStart = () =>
    void opts.redis.client.set(linkEpochKey(opts.redis), String(Date.now()), { NX: true }).catch((err: unknown) => opts.logger.warn({ err }, "could not mark the link state's start in redis"));
  markStart();
  opts.redis.client.on("ready", markStart);
  // Redis down: this instance's own state answers until it is back (local-fallback.ts)
  return withLocalFallback(({ limits, now }): EngineState => {
    const admission = redisAdmission({ ...opts, limits, now });
    const progress = redisProgress({ ...opts, now });
    const linkUsage = redisLinkUsage(opts);
    return {
      admission,
      resolveCache: redisResolveCache({ ...opts, now }),
      progress,
      linkUsage,
      async close() {
        await Promise.all([admission.close(), progress.close(), linkUsage.close()]);
      },
    };
  }, opts.logger);
}
