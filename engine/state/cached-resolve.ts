import type { Logger } from "pino";
import { EngineError } from "../errors.ts";
import type { ResolvedMedia } from "../types.ts";
import type { ResolveCacheStore } from "./types.ts";

/** stream URLs are not reused this close to their expiry */
export const EXPIRY_MARGIN_MS = 60_000;

/**
 * The cache key of a link's answer on one egress (issue 32 §3): an answer's URLs may work only
 * from the address that asked (googlevideo's `ip=`), so each egress has its own entries. Null
 * (no egress pool): the link itself, as before pools existed.
 */
export function resolveCacheKey(url: string, egress: string | null): string {
  return egress === null ? url : `${url}#egress=${egress}`;
}

export interface CachedResolver {
  /**
   * A cached result when one is fresh, else one resolve shared by concurrent callers; `fresh`
   * skips the cache. `load` gets a signal that aborts once every caller waiting for it has left
   * (each caller's `signal`); a caller without a signal waits to the end.
   */
  resolve(key: string, load: (signal: AbortSignal) => Promise<ResolvedMedia>, fresh?: boolean, signal?: AbortSignal): Promise<ResolvedMedia>;
}

/** A resolve under way and who waits for it. */
interface InFlight {
  key: string;
  media: Promise<ResolvedMedia>;
  controller: AbortController;
  /** callers with a signal still waiting */
  waiters: number;
  /** a caller without a signal waits: the resolve runs to its end */
  pinned: boolean;
}

/** What a caller that left is told (nobody reads it: its client is gone). */
function leftError(signal: AbortSignal): EngineError {
  return new EngineError("download.failed", { detail: "the client left while the link was resolved", cause: signal.reason });
}

/**
 * Resolve results are reused briefly through the store (shared across instances when it is);
 * callers asking for the same link at the same time in this process share one resolve. Failures
 * are never kept. A store that fails (Redis down) costs a fresh resolve, not a failed request.
 * A resolve whose callers have all left is aborted (issue 27, finding 5: pages that answered
 * slowly kept yt-dlp busy for minutes after their clients had gone).
 */
export function createCachedResolver(opts: {
  store: ResolveCacheStore;
  ttlSeconds: number;
  now: () => number;
  logger: Pick<Logger, "warn">;
}): CachedResolver {
  const inFlight = new Map<string, InFlight>();
  const { store, ttlSeconds, now, logger } = opts;

  async function cached(key: string): Promise<ResolvedMedia | undefined> {
    try {
      return await store.get(key);
    } catch (err) {
      logger.warn({ err }, "resolve cache read failed; resolving afresh");
      return undefined;
    }
  }

  function start(key: string, load: (signal: AbortSignal) => Promise<ResolvedMedia>, keep: boolean): InFlight {
    const started = now();
    const controller = new AbortController();
    const entry: InFlight = { key, media: load(controller.signal), controller, waiters: 0, pinned: false };
    if (keep) inFlight.set(key, entry);
    entry.media.then(
      (m) => {
        if (inFlight.get(key) === entry) inFlight.delete(key);
        if (!keep) return;
        let expiresAt = started + ttlSeconds * 1000;
        if (m.expiresAt) expiresAt = Math.min(expiresAt, m.expiresAt - EXPIRY_MARGIN_MS);
        store.set(key, m, expiresAt).catch((err: unknown) => logger.warn({ err }, "resolve cache write failed"));
      },
      () => {
        if (inFlight.get(key) === entry) inFlight.delete(key);
      },
    );
    return entry;
  }

  /** The entry's result for one more caller; a caller that leaves first is answered at once, and the last one out aborts the resolve. */
  function join(entry: InFlight, signal: AbortSignal | undefined): Promise<ResolvedMedia> {
    if (!signal) {
      entry.pinned = true;
      return entry.media;
    }
    if (signal.aborted) return Promise.reject(leftError(signal));
    entry.waiters++;
    return new Promise<ResolvedMedia>((resolve, reject) => {
      const onAbort = () => {
        entry.waiters--;
        if (entry.waiters === 0 && !entry.pinned) {
          // the next caller of this link starts afresh instead of joining one being stopped
          if (inFlight.get(entry.key) === entry) inFlight.delete(entry.key);
          entry.controller.abort(signal.reason);
        }
        reject(leftError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      entry.media.then(
        (m) => {
          signal.removeEventListener("abort", onAbort);
          resolve(m);
        },
        (err: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(err);
        },
      );
    });
  }

  return {
    async resolve(key, load, fresh = false, signal) {
      if (signal?.aborted) throw leftError(signal);
      if (ttlSeconds <= 0) return join(start(key, load, false), signal);
      if (!fresh) {
        const pending = inFlight.get(key);
        if (pending) return join(pending, signal);
        const hit = await cached(key);
        if (hit) return hit;
        // another caller may have started while we read the store
        const racing = inFlight.get(key);
        if (racing) return join(racing, signal);
      }
      return join(start(key, load, true), signal);
    },
  };
}
