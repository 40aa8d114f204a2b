import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { Logger } from "pino";

/**
 * glibc's malloc_trim, from the module scripts/build-c-heap-trim.mjs compiles next to the host
 * (docs/decisions/034-trim-the-c-heap-when-quiet.md). Null when it was not built (no C compiler,
 * not Linux) or cannot be loaded: the server then runs without it, as before.
 */
export function loadCHeapTrim(file: string, logger?: Logger): (() => void) | null {
  if (!existsSync(file)) {
    logger?.info("C heap trimming is off: the host was built without a C compiler (docs/decisions/034)");
    return null;
  }
  try {
    const mod = createRequire(import.meta.url)(file) as { trim?: () => number };
    const trim = mod.trim;
    if (typeof trim !== "function") throw new Error("the module has no trim()");
    return () => void trim();
  } catch (err) {
    logger?.warn({ err, file }, "C heap trimming is off: the module did not load");
    return null;
  }
}
