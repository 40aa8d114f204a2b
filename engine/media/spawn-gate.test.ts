import { describe, expect, it } from "vitest";
import { createSpawnGate } from "./spawn-gate.ts";

describe("spawn gate", () => {
  it("grants one spawn per event-loop turn, so I/O runs between spawns", async () => {
    const gate = createSpawnGate();
    // counts event-loop turns (one setImmediate per turn)
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const grantedAt: number[] = [];
    await Promise.all(
      Array.from({ length: 5 }, () =>
        gate.turn().then(() => {
          grantedAt.push(turns);
        }),
      ),
    );
    counting = false;
    expect(grantedAt).toHaveLength(5);
    // strictly increasing: no two spawns share a loop turn
    for (let i = 1; i < grantedAt.length; i++) expect(grantedAt[i]).toBeGreaterThan(grantedAt[i - 1]!);
    expect(gate.waiting()).toBe(0);
  });

  it("drops a waiter whose download was cancelled", async () => {
    const gate = createSpawnGate();
    const first = gate.turn();
    const controller = new AbortController();
    const second = gate.turn(controller.signal);
    const third = gate.turn();
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: "download.failed" });
    await expect(first).resolves.toBeUndefined();
    await expect(third).resolves.toBeUndefined();
    await expect(gate.turn(controller.signal)).rejects.toMatchObject({ code: "download.failed" });
  });
});
