import { describe, expect, it } from "vitest";
import { randomMedia, startFakeUpstream } from "#tests/integration/engine-core/fake-upstream.ts";
import { silentLogger } from "#tests/integration/engine-core/helpers.ts";
import { startThrottlingProxy } from "#tests/integration/media/throttling-proxy.ts";
import { createHostSlots } from "./host-slots.ts";
import { createOutbound, readAll } from "./outbound-fetch.ts";

describe("per-host connection cap", () => {
  it("lets `limit` requests through per host and queues the rest until one is released", async () => {
    const slots = createHostSlots(2);
    const a = await slots.acquire("cdn.example:443");
    const b = await slots.acquire("cdn.example:443");
    // another host has slots of its own
    const other = await slots.acquire("other.example:443");
    let third = false;
    const waiting = slots.acquire("cdn.example:443").then((release) => {
      third = true;
      return release;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    expect(slots.inUse("cdn.example:443")).toBe(2);
    expect(slots.waiting("cdn.example:443")).toBe(1);
    a();
    const c = await waiting;
    expect(third).toBe(true);
    expect(slots.inUse("cdn.example:443")).toBe(2);
    // releasing twice frees one slot only
    a();
    expect(slots.inUse("cdn.example:443")).toBe(2);
    b();
    c();
    other();
    expect(slots.inUse("cdn.example:443")).toBe(0);
  });

  it("serves the request a download is blocked on before speculative ones", async () => {
    const slots = createHostSlots(1);
    const held = await slots.acquire("h");
    const order: string[] = [];
    const speculative = slots.acquire("h").then((r) => (order.push("speculative"), r));
    const urgent = slots.acquire("h", { urgent: true }).then((r) => (order.push("urgent"), r));
    held();
    (await urgent)();
    (await speculative)();
    expect(order).toEqual(["urgent", "speculative"]);
  });

  it("drops a waiter whose download was aborted", async () => {
    const slots = createHostSlots(1);
    const held = await slots.acquire("h");
    const controller = new AbortController();
    const waiting = slots.acquire("h", { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
    expect(slots.waiting("h")).toBe(0);
    held();
    expect(slots.inUse("h")).toBe(0);
  });

  it("0 means no cap", async () => {
    const slots = createHostSlots(0);
    const releases = await Promise.all(Array.from({ length: 500 }, () => slots.acquire("h")));
    expect(slots.inUse("h")).toBe(500);
    for (const r of releases) r();
    expect(slots.inUse("h")).toBe(0);
  });
});

describe("per-host connection cap in the outbound door", () => {
  it("never opens more than the cap to one host, however many downloads ask at once", async () => {
    const upstream = await startFakeUpstream();
    const proxy = await startThrottlingProxy({ target: upstream.origin, bytesPerSecond: 256 * 1024 });
    const outbound = createOutbound({ hostMap: `cdn.example.com=${proxy.origin}`, allowPrivate: false, timeoutMs: 5000, logger: silentLogger, maxConnectionsPerHost: 3 });
    try {
      const data = randomMedia(40_000);
      upstream.files.set("/x.bin", { data, type: "application/octet-stream" });
      const bodies = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await outbound.open("https://cdn.example.com/x.bin");
          return readAll(res.body);
        }),
      );
      expect(bodies.every((b) => b.equals(data))).toBe(true);
      expect(proxy.peakInFlight()).toBe(3);
    } finally {
      outbound.close();
      await proxy.close();
      await upstream.close();
    }
  });
});
