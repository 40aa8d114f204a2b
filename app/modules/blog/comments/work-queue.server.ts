/**
 * A small bounded work queue: at most `concurrency` tasks run at once and at most `maxWaiting`
 * wait for a slot; anything beyond that is refused at once instead of piling up (each comment
 * image costs an ffmpeg process and up to a few hundred MB while it decodes).
 *
 * Each client (its IP) has a share: at most `perClient` of its tasks are in the queue, running or
 * waiting, and a freed slot goes to the waiting client with the fewest tasks running. One client's
 * burst is refused beyond its own share instead of filling the line for everyone (issue 27 §19).
 */
export interface WorkQueue {
  /** run the task when a slot is free, or refuse it (`busy`) when the line or this client's share is full */
  run<T>(task: () => Promise<T>, client?: string): Promise<{ ok: true; value: T } | { ok: false; reason: "busy" }>;
  readonly active: number;
  readonly waiting: number;
}

/** Tasks given without a client share one anonymous share. */
const NO_CLIENT = "";

export function createWorkQueue(opts: { concurrency: number; maxWaiting: number; perClient?: number }): WorkQueue {
  if (!(opts.concurrency >= 1) || !(opts.maxWaiting >= 0)) throw new RangeError("a work queue needs concurrency >= 1 and maxWaiting >= 0");
  const perClient = opts.perClient ?? opts.concurrency + opts.maxWaiting;
  if (!(perClient >= 1)) throw new RangeError("a work queue needs perClient >= 1");
  let active = 0;
  const line: Array<{ client: string; start: () => void }> = [];
  /** tasks per client, running and waiting */
  const held = new Map<string, number>();
  const running = new Map<string, number>();
  const bump = (map: Map<string, number>, client: string, by: number) => {
    const n = (map.get(client) ?? 0) + by;
    if (n > 0) map.set(client, n);
    else map.delete(client);
  };

  const release = () => {
    if (!line.length) {
      active -= 1;
      return;
    }
    // the slot passes straight to a waiting task (`active` stays the same): the oldest of the
    // clients with the fewest tasks running
    let pick = 0;
    for (let i = 1; i < line.length; i++) if ((running.get(line[i]!.client) ?? 0) < (running.get(line[pick]!.client) ?? 0)) pick = i;
    line.splice(pick, 1)[0]!.start();
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return line.length;
    },
    async run(task, client = NO_CLIENT) {
      if ((held.get(client) ?? 0) >= perClient) return { ok: false, reason: "busy" };
      if (active < opts.concurrency) {
        active += 1;
        bump(held, client, 1);
      } else if (line.length < opts.maxWaiting) {
        bump(held, client, 1);
        await new Promise<void>((start) => line.push({ client, start }));
      } else {
        return { ok: false, reason: "busy" };
      }
      bump(running, client, 1);
      try {
        return { ok: true, value: await task() };
      } finally {
        bump(running, client, -1);
        bump(held, client, -1);
        release();
      }
    },
  };
}
