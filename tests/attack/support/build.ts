import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { isAlive } from "../../support/processes.ts";

/**
 * One production build shared by every attack suite. Vitest runs the suites in parallel worker
 * processes; a lock folder makes sure only one of them builds, and the others wait for it.
 * The build is checked once per Vitest run (the workers share a parent process): a build must
 * never be replaced while another suite's server is serving it.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const BUILD_DIR = path.resolve(process.env.ATTACK_BUILD_DIR ?? path.join(tmpdir(), "build-attack"));

const STAMP = path.join(BUILD_DIR, ".build-stamp");
const CHECKED = path.join(BUILD_DIR, ".attack-checked-by");
const LOCK = `${BUILD_DIR}.lock`;


function lockHolder(lock: string): number {
  try {
    return Number(readFileSync(path.join(lock, "pid"), "utf8")) || 0;
  } catch {
    return 0;
  }
}

/** Run `fn` while holding a lock folder shared by the parallel suites (a dead holder's lock is taken over). */
export async function withLock<T>(lock: string, fn: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      // a holder that died (killed run) leaves its lock behind: take it over
      const holder = lockHolder(lock); // 0 while a new holder has not written its pid yet
      if (holder && !isAlive(holder)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited 5 minutes for the lock ${lock}`, { cause: err });
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Build the site into BUILD_DIR unless this run already has an up-to-date build. */
export async function ensureBuild(): Promise<string> {
  const run = String(process.ppid);
  await withLock(LOCK, () => {
    if (existsSync(STAMP) && existsSync(CHECKED) && readFileSync(CHECKED, "utf8") === run) return;
    // scripts/start.mjs rebuilds when the build is missing or older than its sources
    const started = Date.now();
    const result = spawnSync(process.execPath, [path.join(ROOT, "scripts/start.mjs")], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, BUILD_DIR, BUILD_ONLY: "true" },
    });
    if (result.status !== 0) throw new Error(`the build failed:\n${result.stdout}\n${result.stderr}`);
    if (/Built in/.test(result.stdout)) console.log(`[attack] built the site into ${BUILD_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    writeFileSync(CHECKED, run);
  });
  return BUILD_DIR;
}
