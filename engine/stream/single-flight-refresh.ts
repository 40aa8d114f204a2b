/**
 * Re-resolving expired upstream URLs, once for everyone: when several requests in flight are
 * refused with the same (expired) URL, one re-resolve serves them all. Each caller remembers the
 * `generation` it used; a refusal seen with an older generation just retries with the current
 * value. At most `max` re-resolves per download, so an upstream that keeps refusing fails.
 */
export interface SingleFlightRefresh {
  /** bumped every time a fresh value was installed */
  readonly generation: number;
  /**
   * Called after a refusal seen with `seen`: true when a fresh value is (now) in place and the
   * request should be retried; false when there is no refresh left. A failing re-resolve rejects.
   */
  refresh(seen: number): Promise<boolean>;
}

export function createSingleFlightRefresh(
  refresh: (() => Promise<void>) | undefined,
  opts: { max: number; onStart?: (count: number) => void },
): SingleFlightRefresh {
  let generation = 0;
  let count = 0;
  let running: Promise<boolean> | null = null;
  return {
    get generation() {
      return generation;
    },
    refresh(seen) {
      if (seen !== generation) return Promise.resolve(true);
      if (running) return running;
      if (!refresh || count >= opts.max) return Promise.resolve(false);
      count++;
      opts.onStart?.(count);
      running = (async () => {
        try {
          await refresh();
          generation++;
          return true;
        } finally {
          running = null;
        }
      })();
      return running;
    },
  };
}
