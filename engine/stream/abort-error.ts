/**
 * Tells the errors a teardown causes on purpose (an AbortSignal fired, a stream destroyed
 * before it finished) from real failures. Readers wrap the abort in their own EngineError, so
 * the whole `cause` chain is searched.
 */
const ABORT_CODES = new Set(["ABORT_ERR", "ERR_STREAM_PREMATURE_CLOSE", "ERR_STREAM_DESTROYED"]);
const MAX_DEPTH = 8;

export function isAbortError(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < MAX_DEPTH && e instanceof Error; depth++) {
    if (e.name === "AbortError") return true;
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined && ABORT_CODES.has(code)) return true;
    e = e.cause;
  }
  return false;
}
