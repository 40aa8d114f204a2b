/**
 * How many yt-dlp processes run at once. Each is a Python interpreter (tens of MB, a CPU core
 * while it starts); a burst of resolves must not start hundreds. Beyond the running limit runs
 * wait in order; beyond the waiting limit the resolve is answered "busy, try again".
 */
import { EngineError } from "../../errors.ts";

export interface RunSlots {
  /** resolves with the release function once a slot is free */
  acquire(): Promise<() => void>;
  running(): number;
  waiting(): number;
}

export function createRunSlots(maxRunning: number, maxWaiting: number): RunSlots {
  let running = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    // the slot passes straight to the next waiting run, so nothing can overtake it
    if (next) next();
    else running--;
  };
  return {
    async acquire() {
      if (running < maxRunning) {
        running++;
      } else {
        if (queue.length >= maxWaiting) throw new EngineError("download.busy", { retryAfter: 5, detail: `${queue.length} yt-dlp runs already waiting` });
        await new Promise<void>((resolve) => queue.push(resolve));
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
    running: () => running,
    waiting: () => queue.length,
  };
}
