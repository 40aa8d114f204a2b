import type { Logger } from "pino";
import type { ResolvedMedia } from "../types.ts";
import type { ResolveCacheStore } from "./types.ts";

/** stream URLs are not reused this close to their expiry */
export const EXPIRY_MARGIN_MS = 60_000;

export interface CachedResolver {
  /** a cached result when one is fresh, else one resolve shared by concurrent callers; `fresh` skips the cache */
  resolve(key: string, load: () => Promise<ResolvedMedia>, fresh?: boolean): Promise<ResolvedMedia>;
}

/**
 * Resolve results are reused briefly through the store (shared across instances when it is);
 * callers asking for the same link at the same time in this process share one resolve. Failures
 * are never kept. A store that fails (Redis down) costs a fresh resolve, not a failed request.
 */
export function createCachedResolver(opts: {
  store: ResolveCacheStore;
  ttlSeconds: number;
  now: () => number;
  logger: Pick<Logger, "warn">;
}): CachedResolver {
  const inFlight = new Map<string, Promise<ResolvedMedia>>();
  const { store, ttlSeconds, now, logger } = opts;

  async function cached(key: string): Promise<ResolvedMedia | undefined> {
    try {
      return await store.get(key);
    } catch (err) {
      logger.warn({ err }, "resolve cache read failed; resolving afresh");
      return undefined;
    }
  }

  function start(key: string, load: () => Promise<ResolvedMedia>): Promise<ResolvedMedia> {
    const started = now();
    const media = load();
    inFlight.set(key, media);
    media.then(
      (m) => {
        if (inFlight.get(key) === media) inFlight.delete(key);
        let expiresAt = started + ttlSeconds * 1000;
        if (m.expiresAt) expiresAt = Math.min(expiresAt, m.expiresAt - EXPIRY_MARGIN_MS);
        store.set(key, m, expiresAt).catch((err: unknown) => logger.warn({ err }, "resolve cache write failed"));
      },
      () => {
        if (inFlight.get(key) === media) inFlight.delete(key);
      },
    );
    return media;
  }

  return {
    async resolve(key, load, fresh = false) {
      if (ttlSeconds <= 0) return load();
      if (!fresh) {
        const pending = inFlight.get(key);
        if (pending) return pending;
        const hit = await cached(key);
        if (hit) return hit;
        // another caller may have started while we read the store
        const racing = inFlight.get(key);
        if (racing) return racing;
      }
      return start(key, load);
    },
  };
}
