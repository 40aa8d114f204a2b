import { describe, expect, it } from "vitest";
import { createWorkQueue } from "./work-queue.server.ts";

/** A task that runs until released, recording how many tasks run at the same time. */
function gate() {
  let running = 0;
  let most = 0;
  const releases: Array<() => void> = [];
  const task = (label: string, order: string[]) => async () => {
    running++;
    most = Math.max(most, running);
    order.push(label);
    await new Promise<void>((resolve) => releases.push(resolve));
    running--;
    return label;
  };
  return { task, releaseNext: () => releases.shift()?.(), get most() { return most; }, get pending() { return releases.length; } };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("bounded work queue", () => {
  it("runs at most `concurrency` tasks, queues up to `maxWaiting` in order and refuses the rest at once", async () => {
    const queue = createWorkQueue({ concurrency: 2, maxWaiting: 3 });
    const g = gate();
    const order: string[] = [];
    const runs = ["a", "b", "c", "d", "e", "f", "g"].map((l) => queue.run(g.task(l, order)));
    await tick();
    expect(queue.active).toBe(2);
    expect(queue.waiting).toBe(3);
    // the two beyond the waiting line are refused without waiting for anything
    expect(await runs[5]).toEqual({ ok: false, reason: "busy" });
    expect(await runs[6]).toEqual({ ok: false, reason: "busy" });
    while (g.pending > 0 || queue.waiting > 0) {
      g.releaseNext();
      await tick();
    }
    expect(await Promise.all(runs.slice(0, 5))).toEqual(["a", "b", "c", "d", "e"].map((value) => ({ ok: true, value })));
    expect(order).toEqual(["a", "b", "c", "d", "e"]);
    expect(g.most).toBe(2);
    expect(queue.active).toBe(0);
    // room again once the work is done
    const again = queue.run(async () => "later");
    expect(await again).toEqual({ ok: true, value: "later" });
  });

  it("frees the slot when a task fails", async () => {
    const queue = createWorkQueue({ concurrency: 1, maxWaiting: 0 });
    await expect(queue.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(queue.active).toBe(0);
    expect(await queue.run(async () => 1)).toEqual({ ok: true, value: 1 });
  });
});
