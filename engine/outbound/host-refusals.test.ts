import { describe, expect, it } from "vitest";
import { createHostRefusals } from "./host-refusals.ts";

describe("createHostRefusals", () => {
  it("lets a host be asked again `capacity` times, then refuses until tokens come back", () => {
    let t = 0;
    const hosts = createHostRefusals({ capacity: 2, refillPerSecond: 0.5, now: () => t });
    expect([hosts.take("a.test"), hosts.take("a.test"), hosts.take("a.test")]).toEqual([true, true, false]);
    t = 1999;
    expect(hosts.take("a.test")).toBe(false);
    t = 2000;
    expect(hosts.take("a.test")).toBe(true);
    expect(hosts.left("a.test")).toBe(0);
  });

  it("keeps one bucket per host: another host's refusals cost nothing", () => {
    const hosts = createHostRefusals({ capacity: 1, refillPerSecond: 0, now: () => 0 });
    expect(hosts.take("a.test")).toBe(true);
    expect(hosts.take("a.test")).toBe(false);
    expect(hosts.take("b.test")).toBe(true);
  });

  it("never holds more than its capacity, however long a host was quiet", () => {
    let t = 0;
    const hosts = createHostRefusals({ capacity: 3, refillPerSecond: 10, now: () => t });
    hosts.take("a.test");
    t = 60_000;
    expect(hosts.left("a.test")).toBe(3);
  });
});
