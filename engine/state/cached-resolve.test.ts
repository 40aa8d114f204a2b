import { describe, expect, it } from "vitest";
import type { ResolvedMedia } from "../types.ts";
import { createCachedResolver, EXPIRY_MARGIN_MS } from "./cached-resolve.ts";
import { memoryResolveCache } from "./memory.ts";
import type { ResolveCacheStore } from "./types.ts";

const media = (title: string, expiresAt?: number) => ({ details: { title, description: "" }, streams: [], expiresAt }) as unknown as ResolvedMedia;
const quiet = { warn() {} };

describe("cached resolve", () => {
  it("shares one resolve between concurrent callers and reuses it until the TTL", async () => {
    let t = 1000;
    let calls = 0;
    const r = createCachedResolver({ store: memoryResolveCache(() => t), ttlSeconds: 10, now: () => t, logger: quiet });
    const load = async () => media(`v${++calls}`);
    const [a, b] = await Promise.all([r.resolve("k", load), r.resolve("k", load)]);
    expect(calls).toBe(1);
    expect(a).toBe(b);
    await new Promise((res) => setTimeout(res, 0));
    expect((await r.resolve("k", load)).details.title).toBe("v1");
    expect((await r.resolve("k", load, true)).details.title).toBe("v2"); // a forced fresh resolve
    t += 11_000;
    expect((await r.resolve("k", load)).details.title).toBe("v3");
  });

  it("keeps failures out and stops reuse before the stream URLs expire", async () => {
    let t = 0;
    const store = memoryResolveCache(() => t);
    const r = createCachedResolver({ store, ttlSeconds: 3600, now: () => t, logger: quiet });
    await expect(r.resolve("bad", async () => Promise.reject(new Error("upstream down")))).rejects.toThrow("upstream down");
    expect((await r.resolve("bad", async () => media("ok"))).details.title).toBe("ok");
    await r.resolve("exp", async () => media("soon", EXPIRY_MARGIN_MS + 5000));
    await new Promise((res) => setTimeout(res, 0));
    t = 4000;
    expect(await store.get("exp")).toBeDefined();
    t = 5001;
    expect(await store.get("exp")).toBeUndefined();
  });

  it("a failing store costs a fresh resolve, not a failed request", async () => {
    const broken: ResolveCacheStore = {
      get: () => Promise.reject(new Error("redis down")),
      set: () => Promise.reject(new Error("redis down")),
      delete: () => Promise.reject(new Error("redis down")),
      clear: async () => {},
    };
    const warnings: unknown[] = [];
    const r = createCachedResolver({ store: broken, ttlSeconds: 60, now: Date.now, logger: { warn: (o: unknown) => warnings.push(o) } });
    expect((await r.resolve("k", async () => media("fresh"))).details.title).toBe("fresh");
    await new Promise((res) => setTimeout(res, 0));
    expect(warnings.length).toBe(2);
  });
});
