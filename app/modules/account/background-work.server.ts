/**
 * Work an account form starts but does not wait for (mail, a signup's rows): the answer then takes
 * the same time whatever the work turns out to be, so it tells nobody whether an account exists
 * (issue 27 §10, §16). A failure is logged, never thrown at a request that has already been answered.
 */
const pending = new Set<Promise<unknown>>();

type ErrorLog = { error(obj: object, msg: string): void };

/**
 * When the host has written a request's answer, it calls the function it was given (the router
 * context's `afterAnswer`); without a host (tests calling a route), at once.
 */
export type AfterAnswer = (start: () => void) => void;

export function runInBackground(work: Promise<unknown>, logger: ErrorLog, what: string): void {
  const tracked = work.then(
    () => undefined,
    (err: unknown) => logger.error({ err }, `${what} failed`),
  );
  pending.add(tracked);
  void tracked.finally(() => pending.delete(tracked));
}

/**
 * Start `work` once the answer is out. Started earlier, the work (database queries on an
 * in-process PGlite, composing a mail) shares the event loop with the page being rendered, and a
 * known address's heavier work would make its answer measurably slower.
 */
export function runAfterAnswer(work: () => Promise<unknown>, opts: { afterAnswer?: AfterAnswer; logger: ErrorLog; what: string }): void {
  runInBackground(
    new Promise<unknown>((resolve, reject) => {
      const start = () => void work().then(resolve, reject);
      if (opts.afterAnswer) opts.afterAnswer(start);
      else start();
    }),
    opts.logger,
    opts.what,
  );
}

/**
 * Resolves once the background work started so far has ended (tests; a graceful shutdown, which
 * waits at most `maxMs` so a mail server that does not answer cannot hold the stop up).
 */
export async function settleBackgroundWork(maxMs = Number.POSITIVE_INFINITY): Promise<void> {
  const until = Date.now() + maxMs;
  while (pending.size > 0 && Date.now() < until) {
    let timer: NodeJS.Timeout | undefined;
    const late = Number.isFinite(maxMs) ? new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, until - Date.now())))) : null;
    await Promise.race([Promise.allSettled([...pending]), ...(late ? [late] : [])]);
    clearTimeout(timer);
  }
}
