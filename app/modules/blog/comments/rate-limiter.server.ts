/**
 * A fixed-window counter per key behind a small interface, so the in-memory version used today
 * can be swapped for a shared store (several server processes) without touching the callers.
 */
export interface RateLimiter {
  /** count one attempt for `key`; refused once `limit` attempts were counted in the current window */
  take(key: string, now?: number): { ok: true } | { ok: false; retryAfterSeconds: number };
}

export function createMemoryRateLimiter(opts: { limit: number; windowMs: number; maxKeys?: number }): RateLimiter {
  const maxKeys = opts.maxKeys ?? 50_000;
  const windows = new Map<string, { start: number; count: number }>();

  /** Memory stays bounded: expired windows go first, then the oldest keys. */
  const prune = (now: number) => {
    for (const [key, w] of windows) if (now - w.start >= opts.windowMs) windows.delete(key);
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  };

  return {
    take(key, now = Date.now()) {
      let w = windows.get(key);
      if (!w || now - w.start >= opts.windowMs) {
        if (!w && windows.size >= maxKeys) prune(now);
        w = { start: now, count: 0 };
        // re-inserted so Map order stays oldest window first
        windows.delete(key);
        windows.set(key, w);
      }
      if (w.count >= opts.limit) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + opts.windowMs - now) / 1000)) };
      w.count += 1;
      return { ok: true };
    },
  };
}
