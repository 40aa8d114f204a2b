/**
 * How many yt-dlp processes run at once. Each is a Python interpreter (tens of MB, a CPU core
 * while it starts); a burst of resolves must not start hundreds. Beyond the running limit runs
 * wait; beyond the waiting limit the resolve is answered "busy, try again".
 *
 * Each client (an IP address) has a share (issue 27, finding 5: 68 slow pages from one address
 * kept every slot busy for minutes and another visitor was answered "busy"): it runs at most
 * `perClientRunning` at once and keeps at most `perClientWaiting` waiting, and a freed slot goes
 * to the first waiting run whose client is under its share. A waiting run whose signal aborts
 * (its client left) leaves the queue.
 */
import { EngineError } from "../../errors.ts";

export interface RunSlots {
  /** resolves with the release function once a slot is free for `client`; rejects when `signal` aborts first */
  acquire(client?: string, signal?: AbortSignal): Promise<() => void>;
  running(): number;
  waiting(): number;
}

export interface ClientShare {
  /** runs one client may have at once (default: half the slots, at least one) */
  perClientRunning?: number;
  /** runs one client may keep waiting (default: as many as it may run) */
  perClientWaiting?: number;
}

interface Waiter {
  client: string;
  grant: () => void;
}

/** runs asked for without a client (the engine's own re-resolves) are held to no share */
const NOBODY = "";

export function createRunSlots(maxRunning: number, maxWaiting: number, share: ClientShare = {}): RunSlots {
  const perClientRunning = Math.max(1, share.perClientRunning ?? Math.floor(maxRunning / 2));
  const perClientWaiting = Math.max(0, share.perClientWaiting ?? perClientRunning);
  let running = 0;
  const byClient = new Map<string, number>();
  const queue: Waiter[] = [];
  const count = (map: Map<string, number>, client: string, delta: number) => {
    const n = (map.get(client) ?? 0) + delta;
    if (n > 0) map.set(client, n);
    else map.delete(client);
  };
  const waitingFor = (client: string) => queue.filter((w) => w.client === client).length;
  const mayRun = (client: string) => client === NOBODY || (byClient.get(client) ?? 0) < perClientRunning;

  const take = (client: string): (() => void) => {
    running++;
    count(byClient, client, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      count(byClient, client, -1);
      next();
    };
  };

  /** hands free slots to the first waiting runs whose clients are under their share */
  function next(): void {
    while (running < maxRunning) {
      const i = queue.findIndex((w) => mayRun(w.client));
      if (i === -1) return;
      const [w] = queue.splice(i, 1);
      w!.grant();
    }
  }

  return {
    acquire(client = NOBODY, signal) {
      if (signal?.aborted) return Promise.reject(new EngineError("download.failed", { detail: "the client left before yt-dlp started", cause: signal.reason }));
      if (running < maxRunning && mayRun(client)) return Promise.resolve(take(client));
      if (queue.length >= maxWaiting) return Promise.reject(new EngineError("download.busy", { retryAfter: 5, detail: `${queue.length} yt-dlp runs already waiting` }));
      if (client !== NOBODY && waitingFor(client) >= perClientWaiting) {
        return Promise.reject(new EngineError("download.busy", { retryAfter: 5, detail: `this client already has ${perClientWaiting} yt-dlp runs waiting` }));
      }
      return new Promise<() => void>((resolve, reject) => {
        const onAbort = () => {
          const i = queue.indexOf(waiter);
          if (i >= 0) queue.splice(i, 1);
          reject(new EngineError("download.failed", { detail: "the client left before yt-dlp started", cause: signal?.reason }));
        };
        const waiter: Waiter = {
          client,
          grant: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(take(client));
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(waiter);
      });
    },
    running: () => running,
    waiting: () => queue.length,
  };
}
