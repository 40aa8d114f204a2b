/**
 * How many attempts after a refusal (403) one host may see, shared by every download of the
 * process: a token bucket per host. A download that was refused takes a token before it asks
 * again; with the bucket empty it fails at once instead. So a platform that refuses this server
 * (a token gate, a sick egress) sees a bounded trickle of retries however many downloads fail
 * at the same time, never a storm. Tokens come back at a steady rate. Why: issue 32 §4.
 */
export interface HostRefusals {
  /** true when `host` may be asked again after a refusal (a token was taken) */
  take(host: string): boolean;
  /** tokens `host` has left now */
  left(host: string): number;
}

export interface HostRefusalsOptions {
  /** retries after a refusal one host may see at once (the bucket's size) */
  capacity: number;
  /** tokens added back per second */
  refillPerSecond: number;
  now?: () => number;
}

/** The process-wide default: 40 retries after refusals per host at once, then one every 2 s. */
export const DEFAULT_HOST_REFUSALS: HostRefusalsOptions = { capacity: 40, refillPerSecond: 0.5 };

/** Hosts whose buckets are kept; a full bucket is forgotten (it holds nothing a fresh one would not). */
const MAX_HOSTS = 1000;

export function createHostRefusals(opts: HostRefusalsOptions = DEFAULT_HOST_REFUSALS): HostRefusals {
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();

  function current(host: string): { tokens: number; at: number } {
    const t = now();
    const bucket = buckets.get(host) ?? { tokens: opts.capacity, at: t };
    bucket.tokens = Math.min(opts.capacity, bucket.tokens + ((t - bucket.at) / 1000) * opts.refillPerSecond);
    bucket.at = t;
    return bucket;
  }

  return {
    take(host) {
      const bucket = current(host);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      buckets.set(host, bucket);
      if (buckets.size > MAX_HOSTS) {
        for (const name of [...buckets.keys()]) if (current(name).tokens >= opts.capacity) buckets.delete(name);
      }
      return true;
    },
    left(host) {
      return Math.floor(current(host).tokens);
    },
  };
}

/** The one every download of this process shares unless the engine is given its own. */
export const processHostRefusals: HostRefusals = createHostRefusals();
