// Compiles native/c-heap-trim.c into a Node-API module (docs/decisions/034): glibc's
// malloc_trim for the server's idle moments. Linux only; needs a C compiler (`cc`, or CC).
// Without one, or on a C library without malloc_trim, nothing is built and the server runs
// without trimming (it says so in its start-up log).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Builds the module into `outFile`; returns null when built, else why not. */
export function buildCHeapTrim(outFile) {
  rmSync(outFile, { force: true });
  if (process.platform !== "linux") return `not on Linux (${process.platform})`;
  const cc = process.env.CC || "cc";
  const r = spawnSync(cc, ["-O2", "-shared", "-fPIC", "-o", outFile, path.join(root, "native", "c-heap-trim.c")], { encoding: "utf8" });
  if (r.error) return `no C compiler (${cc}: ${r.error.code ?? r.error.message})`;
  if (r.status !== 0) return `${cc} failed: ${(r.stderr || r.stdout).trim().split("\n")[0]}`;
  return null;
}
