/**
 * The rate one upstream connection delivers at, not counting the time the consumer made it wait
 * (a paused body says nothing about the upstream). Used to tell an origin that throttles each
 * connection (parallel ranges help) from a fast one (they would only cost memory).
 */
export interface ConnectionRate {
  bytes(count: number): void;
  pause(now: number): void;
  resume(now: number): void;
  /** bytes per second over the unpaused time, null before `minBytes` and `minMs` were seen */
  rate(now: number, minBytes?: number, minMs?: number): number | null;
  /** the consumer paused this connection at least once (it was not waiting for the upstream) */
  readonly everPaused: boolean;
}

export function createConnectionRate(start: number): ConnectionRate {
  let total = 0;
  let pausedMs = 0;
  let pausedAt: number | null = null;
  let everPaused = false;
  return {
    bytes(count) {
      total += count;
    },
    pause(now) {
      if (pausedAt !== null) return;
      pausedAt = now;
      everPaused = true;
    },
    resume(now) {
      if (pausedAt === null) return;
      pausedMs += now - pausedAt;
      pausedAt = null;
    },
    rate(now, minBytes = 256 * 1024, minMs = 200) {
      const active = now - start - pausedMs - (pausedAt !== null ? now - pausedAt : 0);
      if (total < minBytes || active < minMs) return null;
      return (total * 1000) / active;
    },
    get everPaused() {
      return everPaused;
    },
  };
}

/**
 * Bytes that parallel fetching may hold in memory, across every download of the process: a
 * download switches to parallel ranges only when it can reserve its whole window, so a crowd of
 * slow downloads cannot add up to unbounded memory; the others keep streaming one range at a time.
 */
export interface ByteBudget {
  tryReserve(bytes: number): (() => void) | null;
  readonly reserved: number;
}

export function createByteBudget(limit: number): ByteBudget {
  let reserved = 0;
  return {
    tryReserve(bytes) {
      if (reserved + bytes > limit) return null;
      reserved += bytes;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        reserved -= bytes;
      };
    },
    get reserved() {
      return reserved;
    },
  };
}
