import { describe, expect, it } from "vitest";
import { createRunSlots } from "./run-slots.ts";

describe("yt-dlp run slots", () => {
  it("runs at most N at once, hands freed slots over in order, and refuses beyond the queue", async () => {
    const slots = createRunSlots(2, 1);
    const a = await slots.acquire();
    const b = await slots.acquire();
    expect(slots.running()).toBe(2);
    const order: string[] = [];
    const c = slots.acquire().then((release) => {
      order.push("c");
      return release;
    });
    await Promise.resolve();
    expect(slots.waiting()).toBe(1);
    await expect(slots.acquire()).rejects.toMatchObject({ code: "download.busy", retryAfter: 5 });
    a();
    a(); // a second release of the same slot changes nothing
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    expect(slots.running()).toBe(2);
    b();
    releaseC();
    expect(slots.running()).toBe(0);
  });
});

describe("yt-dlp run slots per client (issue 27, finding 5)", () => {
  it("one client runs at most its share and queues at most as many; another client still gets a slot at once", async () => {
    const slots = createRunSlots(4, 64);
    const attacker = await Promise.all([slots.acquire("203.0.113.66"), slots.acquire("203.0.113.66")]);
    const queued = [slots.acquire("203.0.113.66"), slots.acquire("203.0.113.66")];
    await expect(slots.acquire("203.0.113.66")).rejects.toMatchObject({ code: "download.busy" });
    expect(slots.running()).toBe(2);
    expect(slots.waiting()).toBe(2);
    // a free slot is not the attacker's: a visitor runs at once
    const visitor = await slots.acquire("198.51.100.7");
    expect(slots.running()).toBe(3);
    // a freed slot of the attacker's goes to its own next waiting run
    attacker[0]!();
    const third = await queued[0]!;
    expect(slots.running()).toBe(3);
    visitor();
    attacker[1]!();
    third();
    (await queued[1]!)();
    expect(slots.running()).toBe(0);
  });

  it("a waiting run whose client left leaves the queue, and the slot goes to the next", async () => {
    const slots = createRunSlots(1, 8, { perClientRunning: 1, perClientWaiting: 4 });
    const running = await slots.acquire("a");
    const left = new AbortController();
    const gone = slots.acquire("b", left.signal);
    const next = slots.acquire("c");
    expect(slots.waiting()).toBe(2);
    left.abort();
    await expect(gone).rejects.toMatchObject({ code: "download.failed" });
    expect(slots.waiting()).toBe(1);
    running();
    (await next)();
    expect(slots.running()).toBe(0);
  });
});
