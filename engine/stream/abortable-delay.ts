import { EngineError } from "../errors.ts";

/** Wait before a retry; an abort (teardown) ends the wait at once as a failed download. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // the signal's reason stays the cause, so a teardown can tell this from a real failure
    if (signal.aborted) return reject(new EngineError("download.failed", { detail: "aborted", cause: signal.reason }));
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new EngineError("download.failed", { detail: "aborted", cause: signal.reason }));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
