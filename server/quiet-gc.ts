/**
 * One full collection once the server has been quiet for a few seconds gives back what V8 would
 * keep while idle: the buffers a download's bytes went through and the young generation pages
 * grew. Then `afterCollect` (the C heap trim) returns the C library's free pages, where those
 * buffers lived. Invariant: activity (every request, start-up, a download's end) only notes a
 * time, one timer at a time is armed, and it never keeps the process alive; without
 * `--expose-gc` nothing happens, and without `--heap-growing-percent=100` a download after the
 * collection would collect constantly. Why: docs/performance.md (decisions 019, 026, 031, 034).
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
