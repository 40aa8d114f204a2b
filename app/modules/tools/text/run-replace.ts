import { findAndReplace, type ReplaceOptions, type ReplaceResult } from "./text-transforms.ts";

/** How long a find-and-replace may run before it is stopped. */
export const REPLACE_TIMEOUT_MS = 3000;

export const REPLACE_TIMEOUT_MESSAGE =
  "The regular expression took too long on this text and was stopped. Patterns with nested repeats such as (a+)+ can take forever: simplify the pattern.";

/**
 * Find and replace in a worker that is terminated after REPLACE_TIMEOUT_MS. Plain-text search
 * cannot run away, so it stays on the page.
 */
export function runReplace(text: string, find: string, replacement: string, opts: ReplaceOptions): Promise<ReplaceResult> {
  if (!opts.regex || typeof Worker === "undefined") return Promise.resolve(findAndReplace(text, find, replacement, opts));
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./replace.worker.ts", import.meta.url), { type: "module", name: "text-replace" });
    const timer = setTimeout(() => {
      worker.terminate();
      resolve({ ok: false, message: REPLACE_TIMEOUT_MESSAGE });
    }, REPLACE_TIMEOUT_MS);
    worker.onmessage = (event: MessageEvent<ReplaceResult>) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      clearTimeout(timer);
      worker.terminate();
      // the worker could not start (e.g. blocked): run here, the pattern length is capped
      resolve(findAndReplace(text, find, replacement, opts));
    };
    worker.postMessage({ text, find, replacement, opts });
  });
}
