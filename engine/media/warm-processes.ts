/**
 * Processes started before they are needed: a distribution's ffmpeg/ffprobe takes longer to
 * start than a probe's first read. The pool keeps up to `size` idle per command line, hands one
 * out on demand, and starts the replacement once no download streams (at the latest a few
 * seconds later), so a start-up never competes with the download it belongs to. Invariants:
 * idle processes hold no event-loop reference, exit with the server (their input closes), are
 * ended after `idleMs` unused, and `close()` ends them at once. Why: docs/performance.md
 * (decisions 027, 029, 033).
 */
import { spawn as nodeSpawn, type ChildProcess } from "node:child_process";
import { processSpawnGate, type SpawnGate } from "./spawn-gate.ts";
import { processStreaming, type StreamingActivity } from "./streaming-activity.ts";

/**
 * What each of a process's file descriptors is, from fd 0 on (default: stdin, stdout and stderr
 * piped). Part of the command line: ffmpeg reads its inputs on extra pipes (fd 3, 4, …).
 */
export type WarmStdio = readonly ("pipe" | "ignore")[];
const STANDARD_PIPES: WarmStdio = ["pipe", "pipe", "pipe"];

export interface WarmPool {
  /** an idle process started with exactly this command line, now owned by the caller; null when none is ready */
  take(binary: string, args: readonly string[], stdio?: WarmStdio): ChildProcess | null;
  /** starts processes with this command line until `size` are idle (one spawn per gate turn) */
  fill(binary: string, args: readonly string[], stdio?: WarmStdio): void;
  /**
   * `fill` once no download streams, looked at `settleMs` after the call (the download a prober
   * resolved opens within that time when its link is followed at once), and at the latest
   * `refillDelayMs` after the call; once for every call made meanwhile. The process just used was
   * part of a download, and a start-up while one runs competes with it for the CPU.
   */
  fillLater(binary: string, args: readonly string[], stdio?: WarmStdio): void;
  /** idle processes for this command line (tests) */
  idle(binary: string, args: readonly string[], stdio?: WarmStdio): number;
  /** process ids of every idle process (tests that look for leftover children leave these out) */
  idlePids(): number[];
  /** kills the idle processes; later `fill` calls start new ones */
  close(): void;
}

export interface WarmPoolOptions {
  /** idle processes kept per command line */
  size: number;
  /**
   * idle processes kept across all command lines (default: no limit): a fill beyond it ends the
   * process that has been idle the longest, so the command lines in use keep theirs
   */
  maxIdle?: number;
  /** how long `fillLater` waits at most (default 3 s): downloads may stream without a pause */
  refillDelayMs?: number;
  /** how long `fillLater` waits at least before it looks whether a download streams (default 250 ms) */
  settleMs?: number;
  /** whether a download streams (default: this process's downloads) */
  activity?: StreamingActivity;
  /** how long a process may stay idle before it is ended (default 2 minutes) */
  idleMs?: number;
  spawn?: typeof nodeSpawn;
  gate?: SpawnGate;
}

/**
 * A prober is used up by a resolve, usually of a download about to start: its ffmpeg and its
 * first bytes come next. The replacement waits until that download is over, or this long.
 */
export const DEFAULT_REFILL_DELAY_MS = 3000;
/** A link followed at once (`GET /api/v1/download`, a script) starts streaming well within this. */
export const DEFAULT_SETTLE_MS = 250;
/** Busy periods keep their probers; a quiet server does not hold their memory for nothing. */
export const DEFAULT_IDLE_MS = 120_000;

const keyOf = (binary: string, args: readonly string[], stdio: WarmStdio) => JSON.stringify([binary, ...args, stdio]);
const noop = () => undefined;
const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null && !c.killed && c.pid !== undefined;

/** what keeps the event loop alive: the child and its pipes */
function setRef(child: ChildProcess, on: boolean): void {
  if (on) child.ref();
  else child.unref();
  for (const s of child.stdio) {
    const handle = s as unknown as { ref?: () => void; unref?: () => void } | null;
    if (on) handle?.ref?.();
    else handle?.unref?.();
  }
}

export function createWarmPool(opts: WarmPoolOptions): WarmPool {
  const spawn = opts.spawn ?? nodeSpawn;
  const gate = opts.gate ?? processSpawnGate;
  const idle = new Map<string, ChildProcess[]>();
  const starting = new Map<string, number>();
  let generation = 0;
  /** the listeners that forget an idle process when it dies, removed when it is taken */
  const gone = new WeakMap<ChildProcess, () => void>();
  /** the timer that ends an idle process left unused for `idleMs` */
  const expiry = new WeakMap<ChildProcess, NodeJS.Timeout>();
  /** every idle process, the longest idle first (`maxIdle` ends these first) */
  const byAge: Array<{ key: string; child: ChildProcess }> = [];

  const listOf = (key: string) => {
    let list = idle.get(key);
    if (!list) idle.set(key, (list = []));
    return list;
  };
  /**
   * forgets an idle process (taken, dead or ended); its "error" listener stays until it is
   * taken, so a kill that fails never raises an unhandled error
   */
  const drop = (key: string, child: ChildProcess) => {
    const list = idle.get(key);
    const i = list?.indexOf(child) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
    const j = byAge.findIndex((e) => e.child === child);
    if (j >= 0) byAge.splice(j, 1);
    clearTimeout(expiry.get(child));
    expiry.delete(child);
  };
  const end = (key: string, child: ChildProcess) => {
    drop(key, child);
    child.kill("SIGKILL");
  };

  /** the refills waiting, per command line: their two timers and their wait for a quiet moment */
  type PendingRefill = { settle: NodeJS.Timeout; deadline: NodeJS.Timeout; stopWaiting: () => void };
  const later = new Map<string, PendingRefill>();
  const activity = opts.activity ?? processStreaming;
  const stopLater = (key: string) => {
    const pending = later.get(key);
    if (!pending) return;
    later.delete(key);
    clearTimeout(pending.settle);
    clearTimeout(pending.deadline);
    pending.stopWaiting();
  };

  const pool: WarmPool = {
    take(binary, args, stdio = STANDARD_PIPES) {
      const key = keyOf(binary, args, stdio);
      const list = idle.get(key) ?? [];
      while (list.length > 0) {
        const child = list[0]!;
        drop(key, child);
        // the caller listens from now on
        const onGone = gone.get(child);
        gone.delete(child);
        if (onGone) {
          child.off("error", onGone);
          child.off("exit", onGone);
        }
        if (!alive(child)) continue;
        setRef(child, true);
        return child;
      }
      return null;
    },
    fill(binary, args, stdio = STANDARD_PIPES) {
      if (opts.size <= 0) return;
      const key = keyOf(binary, args, stdio);
      const wanted = opts.size - listOf(key).length - (starting.get(key) ?? 0);
      for (let i = 0; i < wanted; i++) {
        starting.set(key, (starting.get(key) ?? 0) + 1);
        const gen = generation;
        void gate.turn().then(() => {
          starting.set(key, (starting.get(key) ?? 1) - 1);
          if (gen !== generation) return;
          if (opts.maxIdle !== undefined) while (byAge.length >= opts.maxIdle && byAge.length > 0) end(byAge[0]!.key, byAge[0]!.child);
          if (opts.maxIdle === 0) return;
          let child: ChildProcess;
          try {
            child = spawn(binary, [...args], { stdio: [...stdio] });
          } catch {
            return;
          }
          // a process that cannot start or dies while idle is simply not there to take
          const onGone = () => drop(key, child);
          gone.set(child, onGone);
          child.on("error", onGone);
          child.on("exit", onGone);
          child.stdin?.on("error", noop);
          setRef(child, false);
          const timer = setTimeout(() => end(key, child), opts.idleMs ?? DEFAULT_IDLE_MS);
          timer.unref();
          expiry.set(child, timer);
          listOf(key).push(child);
          byAge.push({ key, child });
        });
      }
    },
    fillLater(binary, args, stdio = STANDARD_PIPES) {
      const key = keyOf(binary, args, stdio);
      if (later.has(key) || opts.size <= 0) return;
      const fire = () => {
        if (!later.has(key)) return;
        stopLater(key);
        pool.fill(binary, args, stdio);
      };
      const pending: PendingRefill = {
        settle: setTimeout(() => {
          pending.stopWaiting = activity.whenQuiet(fire);
        }, opts.settleMs ?? DEFAULT_SETTLE_MS),
        deadline: setTimeout(fire, opts.refillDelayMs ?? DEFAULT_REFILL_DELAY_MS),
        stopWaiting: noop,
      };
      pending.settle.unref();
      pending.deadline.unref();
      later.set(key, pending);
    },
    idle: (binary, args, stdio = STANDARD_PIPES) => (idle.get(keyOf(binary, args, stdio)) ?? []).filter(alive).length,
    idlePids: () => [...idle.values()].flat().filter(alive).map((c) => c.pid!),
    close() {
      generation++;
      for (const key of [...later.keys()]) stopLater(key);
      for (const { key, child } of [...byAge]) end(key, child);
    },
  };
  return pool;
}

/** The probers of this process: two per command line (an HLS master probes its video and its audio at once). */
export const processProbers = createWarmPool({ size: 2 });

/**
 * The ffmpegs of this process (docs/decisions/029): one per command line a download used, so the
 * next download of the same kind (an HLS remux to MP4, an MP3 at 320 kbit/s) starts without
 * waiting for ffmpeg's start-up; at most four idle in all, the least recently used ended first.
 */
export const processFfmpegs = createWarmPool({ size: 1, maxIdle: 4 });

/** process ids of every idle warm process of this process (tests that look for leftover children leave these out) */
export const idleWarmPids = (): number[] => [...processProbers.idlePids(), ...processFfmpegs.idlePids()];
