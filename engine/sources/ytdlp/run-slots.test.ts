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
