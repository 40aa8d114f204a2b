/**
 * A download moves its bytes through short-lived buffers whose memory lives outside V8's heap.
 * An idle server never runs the full collection that would return it: measured, a 1 GB
 * download left RSS 30–40 MB above where it started 10 s later, and one full collection brought
 * it below (docs/decisions/019). So once downloads have been quiet for a few seconds, one full
 * collection runs, when the process was started with `--expose-gc` (`npm start` is); without
 * it, nothing happens.
 */
export const QUIET_GC_DELAY_MS = 5_000;

export function collectWhenQuiet(opts: { gc?: () => void; delayMs?: number } = {}): () => void {
  const gc = opts.gc ?? (globalThis as { gc?: () => void }).gc;
  const delayMs = opts.delayMs ?? QUIET_GC_DELAY_MS;
  let timer: NodeJS.Timeout | undefined;
  return () => {
    if (!gc) return;
    clearTimeout(timer);
    timer = setTimeout(() => gc(), delayMs);
    // never what keeps the process alive
    timer.unref();
  };
}
