import { EngineError } from "../errors.ts";

/**
 * Spawning a process blocks the event loop until the child has exec'd (libuv forks, then waits
 * for the exec). On a busy machine, where the new child queues for a CPU behind the ffmpegs
 * already running, a burst of downloads spawned in one event-loop turn froze the server for
 * seconds (figure: docs/performance.md). The gate hands out one spawn per turn: between two spawns the loop goes through
 * its I/O phase, so health checks, page requests and progress events get their turn.
 */
export interface SpawnGate {
  /** resolves when the caller may spawn (synchronously, right away); rejects when `signal` aborts first */
  turn(signal?: AbortSignal): Promise<void>;
  /** callers waiting (tests, metrics) */
  waiting(): number;
}

export function createSpawnGate(): SpawnGate {
  const queue: Array<{ grant: () => void }> = [];
  // a turn was granted in this event-loop turn; the next waits for setImmediate
  let busy = false;

  const next = () => {
    const entry = queue.shift();
    if (!entry) {
      busy = false;
      return;
    }
    entry.grant();
    // setImmediate runs after the poll (I/O) phase of the loop, so pending I/O goes first.
    setImmediate(next);
  };

  return {
    turn(signal) {
      if (signal?.aborted) return Promise.reject(new EngineError("download.failed", { detail: "aborted before ffmpeg started", cause: signal.reason }));
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = queue.indexOf(entry);
          if (i >= 0) queue.splice(i, 1);
          reject(new EngineError("download.failed", { detail: "aborted before ffmpeg started", cause: signal?.reason }));
        };
        const entry = {
          grant: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(entry);
        if (!busy) {
          busy = true;
          next();
        }
      });
    },
    waiting: () => queue.length,
  };
}

/** One gate per process: the event loop it protects is per process, not per engine. */
export const processSpawnGate: SpawnGate = createSpawnGate();
