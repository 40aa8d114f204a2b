import { EngineError } from "../errors.ts";
import { createAdmission } from "./admission.ts";
import { createProgressRegistry } from "./progress-registry.ts";
import { createLinkUsage } from "./link-usage.ts";
import type { ResolvedMedia } from "../types.ts";
import { estimateMediaBytes } from "./media-size.ts";
import type { AdmissionLimits, AdmissionStore, EngineState, EngineStateFactory, LinkUsageStore, ProgressStore, ResolveCacheStore } from "./types.ts";

/**
 * The embedded default: every concern kept in this process (one instance, or tests). The
 * synchronous registries beside it (admission.ts, progress-registry.ts, link-usage.ts) do the
 * work; these adapters give them the shared async interfaces of types.ts.
 */

const MAX_CACHE_ENTRIES = 500;
/** heap the cached resolves may hold together; one larger than a quarter of it is not kept */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export function memoryAdmission(limits: AdmissionLimits, now: () => number = Date.now): AdmissionStore {
  const inner = createAdmission({
    maxConcurrent: limits.maxConcurrent,
    perIpPerHour: limits.perIpPerHour,
    perIpConcurrent: limits.perIpConcurrent,
    perLinkConcurrent: limits.perLinkConcurrent,
    busyRetryAfterSeconds: limits.busyRetryAfterSeconds,
    now,
  });
  return {
    check: async (ip) => inner.check(ip),
    hit: async (ip) => inner.hit(ip),
    acquire: async () => inner.acquire(),
    acquireStream: async (ip, linkId) => inner.acquireStream(ip, linkId),
  };
}

/**
 * Resolves kept until they expire, the oldest dropped first beyond `maxEntries` or beyond
 * `maxBytes` of estimated heap (media-size.ts): a link of many segments weighs megabytes.
 */
export function memoryResolveCache(now: () => number = Date.now, maxEntries = MAX_CACHE_ENTRIES, maxBytes = MAX_CACHE_BYTES): ResolveCacheStore {
  const entries = new Map<string, { media: ResolvedMedia; expiresAt: number; bytes: number }>();
  let held = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    held -= entry.bytes;
  };
  return {
    async get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.expiresAt <= now()) {
        remove(key);
        return undefined;
      }
      return hit.media;
    },
    async set(key, media, expiresAt) {
      remove(key); // re-insert: Map order doubles as oldest-first order
      if (expiresAt <= now()) return;
      const bytes = estimateMediaBytes(media);
      if (bytes > maxBytes / 4) return;
      entries.set(key, { media, expiresAt, bytes });
      held += bytes;
      while (entries.size > maxEntries || held > maxBytes) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        remove(oldest);
      }
    },
    async delete(key) {
      remove(key);
    },
    async clear() {
      entries.clear();
      held = 0;
    },
  };
}

export function memoryProgress(opts: { now?: () => number; intervalMs?: number } = {}): ProgressStore {
  const inner = createProgressRegistry(opts);
  return {
    create: (id, total) => inner.create(id, total),
    start: (id, total, offset) => inner.start(id, total, offset),
    addBytes: (id, n) => inner.addBytes(id, n),
    setFiles: (id, files) => inner.setFiles(id, files),
    finish: (id, state, error) => inner.finish(id, state, error),
    async subscribe(id, fn) {
      if (!inner.has(id)) throw new EngineError("download.not_found");
      return inner.subscribe(id, fn);
    },
  };
}

export function memoryLinkUsage(now: () => number = Date.now): LinkUsageStore {
  const inner = createLinkUsage({ now });
  return {
    admit: async (id, kind, expiresAtMs) => inner.admit(id, kind, expiresAtMs),
    setSize: async (id, bytes) => inner.setSize(id, bytes),
    addBytes: (id, n) => inner.addBytes(id, n),
    complete: async (id) => inner.complete(id),
  };
}

export const memoryEngineState: EngineStateFactory = ({ limits, now }): EngineState => {
  const resolveCache = memoryResolveCache(now);
  return {
    admission: memoryAdmission(limits, now),
    resolveCache,
    progress: memoryProgress({ now }),
    linkUsage: memoryLinkUsage(now),
    close: () => resolveCache.clear(),
  };
};
