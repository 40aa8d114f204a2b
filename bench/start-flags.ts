/**
 * The benchmark measures what operators run: the page and footprint rows start the server with
 * `npm start`'s Node flags (server/start-flags.ts). The engine rows run the engine in the
 * benchmark's own process, which `runWithStartFlags` starts again with them, plus a floor under
 * V8's old-generation limit: the server's ~50 MB of live objects leave its collector that much
 * headroom (docs/decisions/031), the benchmark's ~13 MB would leave it far less, and with too
 * little headroom V8 runs a full collection every few tens of milliseconds of relaying
 * (docs/decisions/032).
 */
import { spawn } from "node:child_process";
import { missingStartEnv, START_ENV } from "../scripts/start-env.mjs";
import { npmStartFlags } from "../server/start-flags.ts";

/** the old generation's limit never below 64 MB: about the headroom the server's own heap gives it */
export const HEAP_FLOOR = "--initial-old-space-size=64";

/**
 * When this process lacks some of `npm start`'s flags or the heap floor, runs the same script
 * (same loader, same arguments) in a child that has them and resolves to its exit code; null
 * when it has them all already (the caller goes on with its work).
 */
export async function runWithStartFlags(repoRoot: string): Promise<number | null> {
  const flags = [...npmStartFlags(repoRoot), HEAP_FLOOR];
  if (flags.every((f) => process.execArgv.includes(f)) && Object.keys(missingStartEnv()).length === 0) return null;
  const script = process.argv[1];
  if (!script) throw new Error("cannot tell which script to run again with npm start's flags");
  const child = spawn(process.execPath, [...flags, ...process.execArgv, script, ...process.argv.slice(2)], { stdio: "inherit", env: { ...process.env, ...START_ENV } });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
