/**
 * Memory V8 would keep while the process sits idle is given back by one full collection once
 * the server has been quiet for a few seconds (docs/decisions/019 and 026):
 * - a download moves its bytes through short-lived buffers whose memory lives outside V8's
 *   heap; an idle server never runs the full collection that would return it (measured: a 1 GB
 *   download left RSS 30–40 MB above where it started 10 s later, one full collection brought
 *   it below);
 * - pages are rendered with a young generation large enough that a busy server rarely
 *   scavenges (`--max-semi-space-size` in `npm start`); once traffic stops, the full collection
 *   shrinks it back, so an idle server holds what it held before the traffic.
 * Activity is noted on every request, at start-up and when a download ends; each note costs a
 * clock read, and one timer at a time is armed. Without `--expose-gc` (`npm start` has it)
 * nothing happens.
 *
 * On its own, the collection leaves V8 with an old-generation limit so close to the heap's size
 * that a download started afterwards, which promotes a little on every chunk, sets off a full
 * collection about every 100 ms for its whole length (three times the CPU per byte). `npm start`
 * fixes V8's heap growth factor (`--heap-growing-percent=100`) so that it does not
 * (docs/decisions/031-a-fixed-heap-growth-factor.md).
 *
 * After the collection, `afterCollect` (the C heap trim, docs/decisions/034) gives the C
 * library's free pages back: the buffers the collection freed lived there.
 */
export const QUIET_GC_DELAY_MS = 3_000;

export function collectWhenQuiet(opts: { gc?: () => void; delayMs?: number; afterCollect?: (() => void) | null } = {}): () => void {
  const gc = opts.gc ?? (globalThis as { gc?: () => void }).gc;
  const delayMs = opts.delayMs ?? QUIET_GC_DELAY_MS;
  let lastActivity = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(check, ms);
    // never what keeps the process alive
    timer.unref();
  };
  function check() {
    const quietFor = Date.now() - lastActivity;
    if (quietFor < delayMs) return arm(delayMs - quietFor);
    timer = undefined;
    gc!();
    opts.afterCollect?.();
  }
  return () => {
    if (!gc) return;
    lastActivity = Date.now();
    if (!timer) arm(delayMs);
  };
}
