/**
 * How many times a read may fail in a row before it gives up, and how long it waits before each
 * new attempt (doubling from `retryDelayMs`). A read that makes progress between failures starts
 * its count again (`progressed`): a long download on a flaky upstream is not failed by cuts
 * spread over hours, while one that fails at the same offset again and again is.
 */
export interface RetryBudget {
  /** the wait before the next attempt after `err`, or null when `err` ends the read */
  next(err: unknown): number | null;
  /** bytes arrived since the last failure */
  progressed(): void;
  /** failures in a row so far */
  readonly failures: number;
}

export function createRetryBudget(opts: { maxRetries: number; retryDelayMs: number; retryable: (err: unknown) => boolean }): RetryBudget {
  let failures = 0;
  return {
    next(err) {
      if (!opts.retryable(err) || failures >= opts.maxRetries) return null;
      failures++;
      return opts.retryDelayMs * 2 ** (failures - 1);
    },
    progressed() {
      failures = 0;
    },
    get failures() {
      return failures;
    },
  };
}
