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

describe("what the cap counts", () => {
  it("counts media bytes through open(), not fetch() bodies a caller may never read", async () => {
    const upstream = await startFakeUpstream();
    const outbound = createOutbound({ hostMap: `api.example.com=${upstream.origin}`, allowPrivate: false, timeoutMs: 2000, logger: silentLogger, maxConnectionsPerHost: 1 });
    try {
      upstream.files.set("/meta.json", { data: Buffer.from('{"ok":true}'), type: "application/json" });
      // two responses left unread: with the cap counting them, the third request would wait forever
      await outbound.fetch("https://api.example.com/meta.json");
      await outbound.fetch("https://api.example.com/meta.json");
      const third = await outbound.fetch("https://api.example.com/meta.json");
      expect(await third.json()).toEqual({ ok: true });
      // open() is capped: a second open waits until the first body is finished
      const media = randomMedia(4_000_000);
      upstream.files.set("/media.mp4", { data: media, type: "video/mp4" });
      const first = await outbound.open("https://api.example.com/media.mp4");
      let secondOpened = false;
      const second = outbound.open("https://api.example.com/media.mp4").then((r) => ((secondOpened = true), r));
      await new Promise((r) => setTimeout(r, 100));
      expect(secondOpened).toBe(false);
      expect((await readAll(first.body)).equals(media)).toBe(true);
      expect((await readAll((await second).body)).equals(media)).toBe(true);
    } finally {
      outbound.close();
      await upstream.close();
    }
  });
});
