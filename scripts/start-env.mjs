// The environment `npm start` serves under, besides its Node flags (server/start-flags.ts).
//
// MALLOC_ARENA_MAX=2: on Node 24 V8 compiles (PGlite's WebAssembly above all) on background
// threads, and glibc gives each thread its own malloc arena; the freed pages stay in those arenas,
// about 80 MB of an idle server. Two arenas keep it near Node 20's figure
// (docs/decisions/047-malloc-arenas-set-by-npm-start.md). glibc reads the variable only when the
// process starts, so `npm start` replaces itself once (same PID, same stdio) with the variable
// set. A value the operator already set is kept.
export const START_ENV = Object.freeze({ MALLOC_ARENA_MAX: "2" });

/** the variables of START_ENV this environment lacks */
export function missingStartEnv(env = process.env) {
  return Object.fromEntries(Object.entries(START_ENV).filter(([name]) => env[name] === undefined || env[name] === ""));
}

/**
 * Runs the process's script again with START_ENV (process.execve: no second process) when it is
 * missing and the platform allows it; otherwise returns and the caller goes on. Call it first
 * thing in the entry script: whatever ran before it runs twice.
 */
export function ensureStartEnv() {
  const missing = missingStartEnv();
  if (Object.keys(missing).length === 0) return;
  // glibc only; Node 22.15+/23.11+ have execve on POSIX systems
  if (process.platform !== "linux" || typeof process.execve !== "function") return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...missing });
}
