/**
 * Counts attempts per key in a fixed window (per address, per email, per account). Accounts,
 * billing and the blog use it, each with its own rules (e.g. account/account-limit-rules.ts).
 * Behind an interface so a shared store (REDIS_URL, several instances) can replace the in-process one.
 */
export interface AttemptLimiter {
  /** count one attempt; `allowed: false` once the key is over its limit in this window */
  hit(key: string, rule: LimitRule): Promise<LimitVerdict>;
}

export interface LimitVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

export interface LimitRule {
  limit: number;
  windowMs: number;
}

/** Above this many live keys, expired windows are swept before adding another. */
const SWEEP_ABOVE = 10_000;

/**
 * The limit that applies to `key`: `ipLimitScale` multiplies the limit of per-address keys
 * (`…:ip:…`), for sites whose visitors share one address (a school's or an office's NAT) and for test harnesses that sign up many
 * accounts from loopback (ACCOUNT_IP_LIMIT_SCALE). Per-email and per-account limits never scale.
 */
export function limitFor(key: string, rule: LimitRule, ipLimitScale = 1): number {
  return key.includes(":ip:") ? rule.limit * ipLimitScale : rule.limit;
}

/** The verdict for the `count`th attempt in a window that resets at `resetAt`. */
export function verdictFor(count: number, limit: number, resetAt: number, t: number): LimitVerdict {
  return { allowed: count <= limit, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - t) / 1000)) };
}

/** The embedded default: windows kept in this process. */
export function createMemoryLimiter(now: () => number = Date.now, opts: { ipLimitScale?: number } = {}): AttemptLimiter {
  const ipLimitScale = opts.ipLimitScale ?? 1;
  const windows = new Map<string, { count: number; resetAt: number }>();
  function sweep(t: number) {
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
  }
  return {
    async hit(key, rule) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        if (windows.size >= SWEEP_ABOVE) sweep(t);
        w = { count: 0, resetAt: t + rule.windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return verdictFor(w.count, limitFor(key, rule, ipLimitScale), w.resetAt, t);
    },
  };
}

/**
 * Count an attempt against every key and report the first refusal. Every key is counted even
 * when an earlier one already refuses, so rotating emails from one address still spends the
 * address's budget.
 */
export async function hitAll(limiter: AttemptLimiter, checks: Array<[string, LimitRule]>): Promise<LimitVerdict> {
  let verdict: LimitVerdict = { allowed: true, retryAfterSeconds: 0 };
  for (const [key, rule] of checks) {
    const r = await limiter.hit(key, rule);
    if (!r.allowed && verdict.allowed) verdict = r;
  }
  return verdict;
}

/** How long a shared store may take to count an attempt before this process counts it instead. */
const SHARED_STORE_TIMEOUT_MS = 1_000;

/**
 * A shared limiter (Redis) that fails or hangs must not turn every login into a 500 (issue 27
 * §18): the attempt is counted in this process instead, with a warning (once a minute while the
 * store is failing). The limits then hold per instance, which is what a single instance has anyway.
 */
export function withInProcessFallback(
  shared: AttemptLimiter,
  opts: { logger: { warn(obj: object, msg: string): void }; ipLimitScale?: number; now?: () => number; timeoutMs?: number },
): AttemptLimiter {
  const now = opts.now ?? Date.now;
  const local = createMemoryLimiter(now, { ipLimitScale: opts.ipLimitScale });
  const timeoutMs = opts.timeoutMs ?? SHARED_STORE_TIMEOUT_MS;
  let warnedAt = -Infinity;
  return {
    async hit(key, rule) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the shared attempt limiter did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        return await Promise.race([shared.hit(key, rule), late]);
      } catch (err) {
        if (now() - warnedAt >= 60_000) {
          warnedAt = now();
          opts.logger.warn({ err }, "attempt limiter: the shared store failed; counting attempts in this process until it answers");
        }
        return local.hit(key, rule);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
