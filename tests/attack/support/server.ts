import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { npmStartFlags } from "#server/start-flags.ts";
import { START_ENV } from "../../../scripts/start-env.mjs";
import { isAlive } from "../../support/processes.ts";
import { BUILD_DIR, ensureBuild, ROOT, withLock } from "./build.ts";

/**
 * A production server (MOCKS=true) in its own process, for attacking from outside: the suites
 * need its pid (RSS, kill -9) and a socket they fully control. Ports 3320–3339 belong to these
 * suites; each suite asks for its own preferred port and falls back to a free one in the range.
 */
export interface AttackServer {
  port: number;
  origin: string;
  pid: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** resident memory of the server process, in MB (VmRSS from /proc) */
  rssMb(): number;
  /** the server's stdout and stderr so far (last 2 MB) */
  output(): string;
  /** exit code or signal when the process has ended on its own, else null */
  exited(): string | null;
  /** SIGTERM, then SIGKILL after a grace period */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown handler runs */
  kill9(): Promise<void>;
  /** a full garbage collection in the server (needs `inspect: true`) */
  collectGarbage(): Promise<void>;
}

export interface StartOptions {
  preferredPort: number;
  /** reuse a data folder (restart after a crash); a fresh one by default */
  dataDir?: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** open the V8 inspector on loopback, so the test can ask for a full garbage collection */
  inspect?: boolean;
}

/**
 * Limits high enough that the fuzzer and the floods are never answered 429 (the limits have
 * their own tests). POST_RATE_LIMIT_PER_MINUTE is capped at 10,000 by server/config.ts.
 */
export const GENEROUS_LIMITS = {
  POST_RATE_LIMIT_PER_MINUTE: "10000",
  RESOLVE_RATE_LIMIT_PER_MINUTE: "10000",
  DOWNLOADS_PER_IP_PER_HOUR: "0",
  MAX_CONCURRENT_DOWNLOADS: "1000",
};

const live = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

const DATA_PREFIX = "vidfetch-attack-";
const OWNER_FILE = ".attack-owner";

/**
 * Data folders outlive their test file (a suite reads a stopped server's PGlite folder at the
 * end, and Vitest may end a worker without an exit event), so each one names the process that
 * made it and later runs remove those whose maker is gone.
 */
function sweepDataDirs() {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(DATA_PREFIX)) continue;
    const dir = path.join(tmpdir(), name);
    const owner = ownerOf(dir); // 0: not ours, or still being made
    if (owner && !isAlive(owner)) rmSync(dir, { recursive: true, force: true });
  }
}

function ownerOf(dir: string): number {
  try {
    return Number(readFileSync(path.join(dir, OWNER_FILE), "utf8")) || 0;
  } catch {
    return 0;
  }
}


function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function pickPort(preferred: number): Promise<number> {
  if (await portIsFree(preferred)) return preferred;
  for (let p = 3320; p <= 3339; p++) if (p !== preferred && (await portIsFree(p))) return p;
  throw new Error("no free port in 3320–3339");
}

export function readRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS for pid ${pid}`);
  return kb / 1024;
}

/**
 * A fresh data folder: a copy of one made by a server that started on an empty folder and was
 * stopped at once. Starting on an empty folder costs a PGlite initdb and the mock platform's
 * media (tens of seconds on a busy machine); the copy is the same state without the wait.
 * Remade when the migrations or the locked dependencies change.
 */
async function freshDataDir(): Promise<string> {
  const template = `${BUILD_DIR}.data-template`;
  const hash = createHash("sha256");
  const migrations = path.join(ROOT, "db/migrations");
  for (const f of readdirSync(migrations, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) hash.update(f.name).update(readFileSync(path.join(f.parentPath, f.name)));
  }
  hash.update(readFileSync(path.join(ROOT, "package-lock.json")));
  const key = hash.digest("hex");
  await withLock(`${template}.lock`, async () => {
    const keyFile = path.join(template, ".template-key");
    if (existsSync(keyFile) && readFileSync(keyFile, "utf8") === key) return;
    const making = mkdtempSync(`${template}.making-`);
    const server = await launch({ preferredPort: 3339, dataDir: making });
    await server.stop();
    writeFileSync(path.join(making, ".template-key"), key);
    rmSync(template, { recursive: true, force: true });
    renameSync(making, template);
  });
  sweepDataDirs();
  const dir = mkdtempSync(path.join(tmpdir(), DATA_PREFIX));
  cpSync(template, dir, { recursive: true });
  writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  // each server generates its own download-signing secret, as on a first start
  rmSync(path.join(dir, "signing-secret"), { force: true });
  rmSync(path.join(dir, ".template-key"), { force: true });
  return dir;
}

export async function startServer(opts: StartOptions): Promise<AttackServer> {
  return launch({ ...opts, dataDir: opts.dataDir ?? (await freshDataDir()) });
}

async function launch(opts: StartOptions & { dataDir: string }): Promise<AttackServer> {
  const buildDir = await ensureBuild();
  const port = await pickPort(opts.preferredPort);
  const dataDir = opts.dataDir;
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    BUILD_DIR: buildDir,
    MOCKS: "true",
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: origin,
    LOG_LEVEL: "warn",
    ATTACK_PARENT_PID: String(process.pid),
    // npm start's environment too (scripts/start-env.mjs): memory is measured as it is served
    ...START_ENV,
    ...GENEROUS_LIMITS,
    ...opts.env,
  };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;

  // npm start's Node flags (heap sizing, --expose-gc): memory under attack is measured as it is in production
  const args = [...(opts.inspect ? ["--inspect=127.0.0.1:0"] : []), ...npmStartFlags(ROOT), path.join(ROOT, "tests/attack/support/serve.mjs")];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  live.add(child);
  let out = "";
  let inspectorUrl: string | undefined;
  const keep = (chunk: Buffer) => {
    out += chunk.toString("utf8");
    inspectorUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(out)?.[1];
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let exit: string | null = null;
  const ended = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = signal ?? `code ${code}`;
      live.delete(child);
      resolve();
    }),
  );

  const deadline = Date.now() + 150_000;
  for (;;) {
    if (exit) throw new Error(`the server exited during start (${exit}):\n${out.slice(-4000)}`);
    try {
      const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer /healthz within 150 s:\n${out.slice(-4000)}`);
    }
    await sleep(200);
  }

  const signal = async (sig: NodeJS.Signals, graceMs: number) => {
    if (exit) return;
    child.kill(sig);
    const timer = sleep(graceMs).then(() => "late" as const);
    if ((await Promise.race([ended.then(() => "ended" as const), timer])) === "late") {
      child.kill("SIGKILL");
      await ended;
    }
  };

  return {
    port,
    origin,
    pid: child.pid!,
    dataDir,
    databaseUrl: opts.databaseUrl,
    rssMb: () => readRssMb(child.pid!),
    output: () => out,
    exited: () => exit,
    stop: () => signal("SIGTERM", 15_000),
    kill9: () => signal("SIGKILL", 10_000),
    collectGarbage: async () => {
      if (!inspectorUrl) throw new Error("the server was not started with inspect: true");
      await collectGarbageVia(inspectorUrl);
    },
  };
}

/**
 * HeapProfiler.collectGarbage over the inspector protocol. Node 20 has WebSocket only behind a
 * flag, so a short-lived helper process speaks it; twice, so objects freed by the first
 * collection's finalizers go too.
 */
async function collectGarbageVia(wsUrl: string): Promise<void> {
  const script = `
    const ws = new WebSocket(process.argv[1]);
    let id = 0;
    const send = () => ws.send(JSON.stringify({ id: ++id, method: "HeapProfiler.collectGarbage" }));
    ws.onopen = send;
    ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.id === 1) send(); else if (m.id === 2) { ws.close(); process.exit(0); } };
    ws.onerror = () => process.exit(2);
    setTimeout(() => process.exit(3), 30000);`;
  const flags = typeof (globalThis as { WebSocket?: unknown }).WebSocket === "function" ? [] : ["--experimental-websocket"];
  const helper = spawn(process.execPath, [...flags, "--no-warnings", "-e", script, wsUrl], { stdio: "ignore" });
  const code = await new Promise<number | null>((resolve) => helper.once("exit", resolve));
  if (code !== 0) throw new Error(`garbage collection through the inspector failed (exit ${code})`);
}

/** Wait until RSS stops falling (or a time limit), for before/after memory comparisons. */
export async function settledRssMb(server: AttackServer, opts: { maxMs: number; stepMs?: number } = { maxMs: 10_000 }): Promise<number> {
  const step = opts.stepMs ?? 1000;
  let last = server.rssMb();
  const until = Date.now() + opts.maxMs;
  while (Date.now() < until) {
    await sleep(step);
    const now = server.rssMb();
    if (now >= last - 1) return Math.min(now, last);
    last = now;
  }
  return last;
}
