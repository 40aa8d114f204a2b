import { describe, expect, it } from "vitest";
import type { ResolvedMedia } from "../types.ts";
import { createCachedResolver, EXPIRY_MARGIN_MS, resolveCacheKey } from "./cached-resolve.ts";
import { memoryResolveCache } from "./memory.ts";
import type { ResolveCacheStore } from "./types.ts";

const media = (title: string, expiresAt?: number) => ({ details: { title, description: "" }, streams: [], expiresAt }) as unknown as ResolvedMedia;
const quiet = { warn() {} };

describe("cached resolve", () => {
  it("keeps one egress's answer from another's, and keys a link alone without a pool", async () => {
    const link = "https://www.youtube.com/watch?v=abcdefghijk";
    expect(resolveCacheKey(link, null)).toBe(link);
    const resolver = createCachedResolver({ store: memoryResolveCache(() => 0), ttlSeconds: 60, now: () => 0, logger: quiet });
    let loads = 0;
    const on = (egress: string) => resolver.resolve(resolveCacheKey(link, egress), async () => media(`${egress} ${++loads}`));
    expect((await on("proxy-1")).details.title).toBe("proxy-1 1");
    expect((await on("proxy-2")).details.title).toBe("proxy-2 2");
    expect((await on("proxy-1")).details.title).toBe("proxy-1 1");
    expect(loads).toBe(2);
  });

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

describe("cached resolve, callers that leave (issue 27, finding 5)", () => {
  const tick = () => new Promise((res) => setTimeout(res, 0));
  const resolver = () => createCachedResolver({ store: memoryResolveCache(), ttlSeconds: 60, now: Date.now, logger: quiet });
  /** a load that runs until it is aborted; `aborted` says whether it was */
  const endless = () => {
    const state = { aborted: false, started: 0 };
    const load = (signal: AbortSignal) =>
      new Promise<ResolvedMedia>((_resolve, reject) => {
        state.started++;
        signal.addEventListener("abort", () => {
          state.aborted = true;
          reject(new Error("aborted"));
        });
      });
    return { state, load };
  };

  it("aborts the resolve once the last caller waiting for it has left, not before", async () => {
    const r = resolver();
    const { state, load } = endless();
    const first = new AbortController();
    const second = new AbortController();
    const a = r.resolve("k", load, false, first.signal);
    const b = r.resolve("k", load, false, second.signal);
    await tick();
    expect(state.started).toBe(1);
    first.abort();
    await expect(a).rejects.toMatchObject({ code: "download.failed" });
    expect(state.aborted).toBe(false);
    second.abort();
    await expect(b).rejects.toMatchObject({ code: "download.failed" });
    expect(state.aborted).toBe(true);
    // the next caller starts a resolve of its own
    const third = new AbortController();
    const c = r.resolve("k", load, false, third.signal);
    await tick();
    expect(state.started).toBe(2);
    third.abort();
    await expect(c).rejects.toBeDefined();
  });

  it("a caller without a signal keeps the resolve going for everyone", async () => {
    const r = resolver();
    let finish: (m: ResolvedMedia) => void = () => undefined;
    let aborted = false;
    const load = (signal: AbortSignal) =>
      new Promise<ResolvedMedia>((resolve) => {
        finish = resolve;
        signal.addEventListener("abort", () => (aborted = true));
      });
    const leaving = new AbortController();
    const a = r.resolve("k", load, false, leaving.signal);
    const b = r.resolve("k", load);
    await tick();
    leaving.abort();
    await expect(a).rejects.toMatchObject({ code: "download.failed" });
    expect(aborted).toBe(false);
    finish(media("done"));
    expect((await b).details.title).toBe("done");
  });
});
