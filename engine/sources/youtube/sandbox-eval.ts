/**
 * Runs the decipher code youtubei.js extracts from YouTube's player script. That script is code
 * from a third party, so it never runs in our own realm: it gets a fresh `node:vm` context with no
 * Node globals (no `process`, `require`, timers, network) and no host objects passed in, string
 * code generation (`eval`, `new Function`) disabled, and a hard time limit. Only string results
 * are copied back out.
 *
 * node:vm is not a full security boundary; together with the fact that the script comes only from
 * the platform's own host (through the outbound fetch) and runs only on the non-default decipher
 * path, it bounds what a broken or hostile script can do: loop (stopped by the timeout) or throw.
 */
import vm from "node:vm";
import { Platform } from "youtubei.js";
import type { Types } from "youtubei.js";

/** Per evaluation; deciphering takes a few milliseconds in practice. */
export const SANDBOX_TIMEOUT_MS = 1000;

type EvalData = Parameters<Types.PlatformShim["eval"]>[0];
type EvalResult = Awaited<ReturnType<Types.PlatformShim["eval"]>>;

export function sandboxEval(data: EvalData, timeoutMs = SANDBOX_TIMEOUT_MS): EvalResult {
  const context = vm.createContext(Object.create(null) as object, {
    name: "youtube-player-sandbox",
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: "afterEvaluate",
  });
  // The player code expects browser-like self references.
  vm.runInContext("globalThis.window = globalThis; globalThis.self = globalThis;", context, { timeout: timeoutMs });
  const raw: unknown = vm.runInContext(`(function () {\n${data.output}\n})()`, context, {
    timeout: timeoutMs,
    filename: "youtube-player-decipher.js",
  });
  if (raw === null || typeof raw !== "object") return {};
  const out: Record<string, string> = {};
  for (const key of ["sig", "n"]) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === "string") out[key] = value;
  }
  return out as EvalResult;
}

let installed = false;

/** youtubei.js ships no evaluator on Node; ours is the sandbox above. */
export function installSandboxEvaluator(): void {
  if (installed) return;
  Platform.shim.eval = (data) => sandboxEval(data);
  installed = true;
}
