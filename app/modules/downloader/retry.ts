/** Spec §4 "Format button" / §9: three tries, 1.5 s apart. */
export const MAX_ATTEMPTS = 3;
export const RETRY_DELAY_MS = 1500;

export interface RetryOptions {
  attempts?: number;
  delayMs?: number;
  /** called before every attempt with its number (1-based) */
  onAttempt?: (attempt: number) => void;
  /** false stops retrying (a refusal that another try cannot change) */
  shouldRetry?: (err: unknown) => boolean;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export class RetriesExhaustedError extends Error {
  readonly attempts: number;
  constructor(
    readonly last: unknown,
    attempts: number,
  ) {
    super(last instanceof Error ? last.message : String(last), { cause: last });
    this.name = "RetriesExhaustedError";
    this.attempts = attempts;
  }
}

/**
 * Run `task` until it succeeds or the attempts run out. The last failure is rethrown wrapped in
 * `RetriesExhaustedError` so callers can tell "gave up after n tries" from "refused at once".
 */
export async function withRetries<T>(task: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? MAX_ATTEMPTS;
  const delayMs = opts.delayMs ?? RETRY_DELAY_MS;
  const wait = opts.sleep ?? sleep;
  let attempt = 0;
  for (;;) {
    attempt += 1;
    opts.onAttempt?.(attempt);
    try {
      return await task(attempt);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      const retry = opts.shouldRetry ? opts.shouldRetry(err) : true;
      if (!retry || attempt >= attempts) throw new RetriesExhaustedError(err, attempt);
      await wait(delayMs, opts.signal);
    }
  }
}
