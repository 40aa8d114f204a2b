/**
 * Probers started before they are needed (docs/decisions/027). A distribution's ffmpeg/ffprobe
 * links a few hundred shared libraries: on the 2-core benchmark machine one takes 60–280 ms to
 * start before it reads a byte, and a resolve waits for it (the HLS master of issue 13 probes
 * its video and its audio rendition at once). Every probe runs the same command line and reads
 * its input from stdin, so a started prober waits for its bytes just as well as a new one: the
 * pool keeps up to `size` of them idle per command line, hands one out on demand, and starts a
 * replacement a while after the one taken has exited (not while it works, nor while the download
 * it resolved starts: on a small machine the start-up would compete with them for the CPU).
 *
 * Idle probers hold no event-loop reference (they never keep the process alive) and exit on
 * their own when the server does: their stdin closes. One left idle for `idleMs` (default
 * 2 minutes) is ended: a quiet server gives their memory (about 35 MB each) back and starts
 * them again with its next probe. `close()` ends them at once.
 */
import { spawn as nodeSpawn, type ChildProcess } from "node:child_process";
import { processSpawnGate, type SpawnGate } from "./spawn-gate.ts";

export interface WarmPool {
  /** an idle process started with exactly this command line, now owned by the caller; null when none is ready */
  take(binary: string, args: readonly string[]): ChildProcess | null;
  /** starts processes with this command line until `size` are idle (one spawn per gate turn) */
  fill(binary: string, args: readonly string[]): void;
  /**
   * `fill` after `refillDelayMs`, once for every call made meanwhile: the process just used was
   * part of a download that is starting (its ffmpeg, its first bytes), and a start-up now would
   * compete with it for the CPU
   */
  fillLater(binary: string, args: readonly string[]): void;
  /** idle processes for this command line (tests) */
  idle(binary: string, args: readonly string[]): number;
  /** process ids of every idle process (tests that look for leftover children leave these out) */
  idlePids(): number[];
  /** kills the idle processes; later `fill` calls start new ones */
  close(): void;
}

export interface WarmPoolOptions {
  /** idle processes kept per command line */
  size: number;
  /** how long `fillLater` waits (default 3 s) */
  refillDelayMs?: number;
  /** how long a process may stay idle before it is ended (default 2 minutes) */
  idleMs?: number;
  spawn?: typeof nodeSpawn;
  gate?: SpawnGate;
}

/**
 * A prober is used up by a resolve, usually of a download about to start: its ffmpeg and its
 * first bytes come next. The replacement waits until they are under way.
 */
export const DEFAULT_REFILL_DELAY_MS = 3000;
/** Busy periods keep their probers; a quiet server does not hold their memory for nothing. */
export const DEFAULT_IDLE_MS = 120_000;

const keyOf = (binary: string, args: readonly string[]) => JSON.stringify([binary, ...args]);
const noop = () => undefined;
const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null && !c.killed && c.pid !== undefined;

/** what keeps the event loop alive: the child and its three pipes */
function setRef(child: ChildProcess, on: boolean): void {
  if (on) child.ref();
  else child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) {
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

  const listOf = (key: string) => {
    let list = idle.get(key);
    if (!list) idle.set(key, (list = []));
    return list;
  };
  const drop = (key: string, child: ChildProcess) => {
    const list = idle.get(key);
    const i = list?.indexOf(child) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  };

  const later = new Map<string, NodeJS.Timeout>();

  const pool: WarmPool = {
    take(binary, args) {
      const key = keyOf(binary, args);
      const list = idle.get(key) ?? [];
      while (list.length > 0) {
        const child = list.shift()!;
        const onGone = gone.get(child);
        gone.delete(child);
        clearTimeout(expiry.get(child));
        expiry.delete(child);
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
    fill(binary, args) {
      if (opts.size <= 0) return;
      const key = keyOf(binary, args);
      const wanted = opts.size - listOf(key).length - (starting.get(key) ?? 0);
      for (let i = 0; i < wanted; i++) {
        starting.set(key, (starting.get(key) ?? 0) + 1);
        const gen = generation;
        void gate.turn().then(() => {
          starting.set(key, (starting.get(key) ?? 1) - 1);
          if (gen !== generation) return;
          let child: ChildProcess;
          try {
            child = spawn(binary, [...args], { stdio: ["pipe", "pipe", "pipe"] });
          } catch {
            return;
          }
          // a prober that cannot start or dies while idle is simply not there to take
          const onGone = () => drop(key, child);
          gone.set(child, onGone);
          child.on("error", onGone);
          child.on("exit", onGone);
          child.stdin?.on("error", noop);
          setRef(child, false);
          const timer = setTimeout(() => {
            drop(key, child);
            child.kill("SIGKILL");
          }, opts.idleMs ?? DEFAULT_IDLE_MS);
          timer.unref();
          expiry.set(child, timer);
          listOf(key).push(child);
        });
      }
    },
    fillLater(binary, args) {
      const key = keyOf(binary, args);
      if (later.has(key) || opts.size <= 0) return;
      const timer = setTimeout(() => {
        later.delete(key);
        pool.fill(binary, args);
      }, opts.refillDelayMs ?? DEFAULT_REFILL_DELAY_MS);
      timer.unref();
      later.set(key, timer);
    },
    idle: (binary, args) => (idle.get(keyOf(binary, args)) ?? []).filter(alive).length,
    idlePids: () => [...idle.values()].flat().filter(alive).map((c) => c.pid!),
    close() {
      generation++;
      for (const timer of later.values()) clearTimeout(timer);
      later.clear();
      for (const list of idle.values())
        for (const child of list.splice(0)) {
          clearTimeout(expiry.get(child));
          child.kill("SIGKILL");
        }
    },
  };
  return pool;
}

/** The probers of this process: two per command line (an HLS master probes its video and its audio at once). */
export const processProbers = createWarmPool({ size: 2 });
