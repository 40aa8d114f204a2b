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

  it("gives each client a share: one client's burst is refused beyond it, others still get in", async () => {
    const queue = createWorkQueue({ concurrency: 2, maxWaiting: 4, perClient: 2 });
    const g = gate();
    const order: string[] = [];
    const burst = Array.from({ length: 6 }, (_, i) => queue.run(g.task(`a${i}`, order), "203.0.113.1"));
    await tick();
    // two of the burst are in; the other four are refused at once, not parked in the line
    for (const refused of burst.slice(2)) expect(await refused).toEqual({ ok: false, reason: "busy" });
    expect(queue.active).toBe(2);
    expect(queue.waiting).toBe(0);
    const others = ["b", "c", "d"].map((c) => queue.run(g.task(c, order), `198.51.100.${c.charCodeAt(0)}`));
    await tick();
    expect(queue.waiting).toBe(3);
    while (g.pending > 0 || queue.waiting > 0) {
      g.releaseNext();
      await tick();
    }
    expect(await Promise.all(others)).toEqual(["b", "c", "d"].map((value) => ({ ok: true, value })));
    expect(order).toEqual(["a0", "a1", "b", "c", "d"]);
  });

  it("a freed slot goes to the waiting client with the fewest tasks running", async () => {
    const queue = createWorkQueue({ concurrency: 2, maxWaiting: 4, perClient: 3 });
    const g = gate();
    const order: string[] = [];
    const runs = [
      queue.run(g.task("a0", order), "a"),
      queue.run(g.task("a1", order), "a"),
      queue.run(g.task("a2", order), "a"),
      queue.run(g.task("b0", order), "b"),
    ];
    await tick();
    expect(order).toEqual(["a0", "a1"]);
    g.releaseNext();
    await tick();
    // a still runs one task, b none: b goes first although a2 waited longer
    expect(order).toEqual(["a0", "a1", "b0"]);
    while (g.pending > 0 || queue.waiting > 0) {
      g.releaseNext();
      await tick();
    }
    expect((await Promise.all(runs)).every((r) => r.ok)).toBe(true);
    expect(order).toEqual(["a0", "a1", "b0", "a2"]);
  });
});
