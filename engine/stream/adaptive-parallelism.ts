/**
 * How many requests one download keeps in flight against an upstream that throttles each
 * connection: start low, add one more while the consumer is starved (waiting for bytes) and the
 * last addition paid off (aggregate throughput grew by at least `minGain`); stop for good at the
 * first addition that did not, or at `max` (DOWNLOAD_RANGE_CONCURRENCY). A consumer that is
 * itself the bottleneck is never starved, so it never causes more connections.
 *
 * Pure bookkeeping (the clock is passed in), so it is tested without any network.
 */
export interface AdaptiveParallelismOptions {
  start: number;
  max: number;
  /** length of one measuring window, ms (default 400) */
  windowMs?: number;
  /** relative throughput growth that justifies one more connection (default 0.1) */
  minGain?: number;
}

export interface AdaptiveParallelism {
  readonly level: number;
  /** bytes arrived at `now` (any request of the download) */
  bytes(count: number, now: number): void;
  /** the consumer waited for bytes at `now` */
  starved(now: number): void;
}

export function createAdaptiveParallelism(opts: AdaptiveParallelismOptions): AdaptiveParallelism {
  const max = Math.max(1, Math.floor(opts.max));
  const windowMs = opts.windowMs ?? 400;
  const minGain = opts.minGain ?? 0.1;
  let level = Math.min(max, Math.max(1, Math.floor(opts.start)));
  let frozen = level >= max;
  let windowStart: number | null = null;
  let windowBytes = 0;
  let windowStarved = false;
  /** throughput measured at the current level before the last step up */
  let before: number | null = null;

  function close(now: number): void {
    if (windowStart === null || now - windowStart < windowMs) return;
    const rate = (windowBytes * 1000) / (now - windowStart);
    if (!frozen && windowStarved) {
      if (before === null || rate >= before * (1 + minGain)) {
        before = rate;
        level++;
        if (level >= max) frozen = true;
      } else {
        // the last connection added nothing: the limit is not per connection
        frozen = true;
      }
    }
    windowStart = now;
    windowBytes = 0;
    windowStarved = false;
  }

  return {
    get level() {
      return level;
    },
    bytes(count, now) {
      windowStart ??= now;
      windowBytes += count;
      close(now);
    },
    starved(now) {
      windowStart ??= now;
      windowStarved = true;
      close(now);
    },
  };
}
