/**
 * A small bounded work queue: at most `concurrency` tasks run at once and at most `maxWaiting`
 * wait for a slot; anything beyond that is refused at once instead of piling up (each comment
 * image costs an ffmpeg process and up to a few hundred MB while it decodes).
 */
export interface WorkQueue {
  /** run the task when a slot is free, or refuse it (`busy`) when the waiting line is full */
  run<T>(task: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; reason: "busy" }>;
  readonly active: number;
  readonly waiting: number;
}

export function createWorkQueue(opts: { concurrency: number; maxWaiting: number }): WorkQueue {
  if (!(opts.concurrency >= 1) || !(opts.maxWaiting >= 0)) throw new RangeError("a work queue needs concurrency >= 1 and maxWaiting >= 0");
  let active = 0;
  const line: Array<() => void> = [];

  const release = () => {
    const next = line.shift();
    // the slot passes straight to the next task, so `active` stays the same
    if (next) next();
    else active -= 1;
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return line.length;
    },
    async run(task) {
      if (active < opts.concurrency) {
        active += 1;
      } else if (line.length < opts.maxWaiting) {
        await new Promise<void>((resolve) => line.push(resolve));
      } else {
        return { ok: false, reason: "busy" };
      }
      try {
        return { ok: true, value: await task() };
      } finally {
        release();
      }
    },
  };
}
