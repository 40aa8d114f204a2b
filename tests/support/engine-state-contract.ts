import { describe, expect, it } from "vitest";
import { isEngineError } from "#engine/errors.ts";
import type { DownloadProgress } from "#engine/index.ts";
import type { AdmissionLimits, EngineState } from "#engine/state/types.ts";
import type { ResolvedMedia } from "#engine/types.ts";

/**
 * One behaviour, two implementations: the in-process state (engine/state/memory.ts) and the
 * Redis one (server/state/) both run this suite. `make` builds one engine's state (one
 * instance); `shared` says whether two of them see each other's writes (the Redis case).
 */
export interface StateHarness {
  make(limits: AdmissionLimits, now?: () => number): EngineState;
  shared: boolean;
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; retryAfter?: number }> {
  try {
    await p;
  } catch (err) {
    if (isEngineError(err)) return { code: err.code, retryAfter: err.retryAfter };
    throw err;
  }
  throw new Error("expected a refusal");
}

const LIMITS: AdmissionLimits = { maxConcurrent: 2, perIpPerHour: 2, perIpConcurrent: 2, perLinkConcurrent: 1 };

const media = (title: string): ResolvedMedia => ({
  platform: "generic",
  sourceUrl: `https://example.com/${title}`,
  details: { id: title, title, description: "", thumbnail: "", duration: "1:00", views: "", uploadDate: "", channel: "", platform: "generic", durationSeconds: 60, embedUrl: null } as unknown as ResolvedMedia["details"],
  streams: [{ id: "s1", kind: "progressive", url: "https://example.com/v.mp4", transport: { type: "direct" }, container: "mp4", bytes: 1234 } as unknown as ResolvedMedia["streams"][number]],
  thumbnails: [],
  captions: [],
});

export function engineStateContract(name: string, h: StateHarness): void {
  // cases about two instances exist only for a shared store (not "skipped" for the in-process one)
  const itShared = (title: string, fn: () => Promise<void>) => {
    if (h.shared) it(title, fn);
  };
  describe(`${name}: admission`, () => {
    it("holds at most maxConcurrent streams; a release frees one slot once", async () => {
      const s = h.make(LIMITS);
      try {
        const a = await s.admission.acquire();
        await s.admission.acquire();
        expect(await refusal(s.admission.acquire())).toMatchObject({ code: "download.busy" });
        a();
        a(); // idempotent: frees one slot, not two
        const c = await s.admission.acquire();
        expect(await refusal(s.admission.acquire())).toMatchObject({ code: "download.busy" });
        c();
      } finally {
        await s.close();
      }
    });

    it("caps streams per IP and per link with a 429 and Retry-After", async () => {
      const s = h.make(LIMITS);
      try {
        const r1 = await s.admission.acquireStream("198.51.100.1", "dl_a");
        expect(await refusal(s.admission.acquireStream("198.51.100.1", "dl_a"))).toEqual({ code: "download.rate_limited", retryAfter: 5 });
        await s.admission.acquireStream("198.51.100.1", "dl_b");
        expect(await refusal(s.admission.acquireStream("198.51.100.1", "dl_c"))).toMatchObject({ code: "download.rate_limited" });
        // another IP is not affected by the first one's streams
        const other = await s.admission.acquireStream("198.51.100.2", "dl_d");
        r1();
        await s.admission.acquireStream("198.51.100.1", "dl_a");
        other();
      } finally {
        await s.close();
      }
    });

    it("counts downloads per IP per hour; a refund gives one back; the hour passes", async () => {
      let t = 1_700_000_000_000;
      const s = h.make(LIMITS, () => t);
      const ip = `203.0.113.${Math.floor(Math.random() * 200)}`;
      try {
        await s.admission.check(ip);
        await s.admission.hit(ip);
        t += 1000;
        const refund = await s.admission.hit(ip);
        const refused = await refusal(s.admission.hit(ip));
        expect(refused.code).toBe("download.rate_limited");
        expect(refused.retryAfter).toBe(3599);
        expect((await refusal(s.admission.check(ip))).code).toBe("download.rate_limited");
        refund();
        refund();
        expect(await until(async () => (await s.admission.check(ip).then(() => true, () => false)))).toBe(true);
        await s.admission.hit(ip);
        expect((await refusal(s.admission.hit(ip))).code).toBe("download.rate_limited");
        t += 60 * 60 * 1000;
        await s.admission.hit(ip);
      } finally {
        await s.close();
      }
    });

    itShared("two instances share one count", async () => {
      const a = h.make(LIMITS);
      const b = h.make(LIMITS);
      const ip = "192.0.2.77";
      try {
        await a.admission.acquire();
        await b.admission.acquire();
        expect((await refusal(a.admission.acquire())).code).toBe("download.busy");
        await a.admission.hit(ip);
        await b.admission.hit(ip);
        expect((await refusal(a.admission.check(ip))).code).toBe("download.rate_limited");
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  describe(`${name}: resolve cache`, () => {
    it("returns what was stored until it expires", async () => {
      const s = h.make(LIMITS);
      try {
        const m = media("first");
        await s.resolveCache.set("k1", m, Date.now() + 200);
        expect(await s.resolveCache.get("k1")).toEqual(m);
        expect(await s.resolveCache.get("other")).toBeUndefined();
        expect(await until(async () => (await s.resolveCache.get("k1")) === undefined, 2000)).toBe(true);
        await s.resolveCache.set("k2", m, Date.now() - 1);
        expect(await s.resolveCache.get("k2")).toBeUndefined();
        await s.resolveCache.set("k3", m, Date.now() + 60_000);
        await s.resolveCache.delete("k3");
        expect(await s.resolveCache.get("k3")).toBeUndefined();
      } finally {
        await s.close();
      }
    });

    itShared("a result stored by one instance is read by the other", async () => {
      const a = h.make(LIMITS);
      const b = h.make(LIMITS);
      try {
        await a.resolveCache.set("shared", media("shared"), Date.now() + 60_000);
        expect((await b.resolveCache.get("shared"))?.details.title).toBe("shared");
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  describe(`${name}: progress`, () => {
    it("an unknown download is not found; a created one reports queued, streaming, then done", async () => {
      const s = h.make(LIMITS);
      try {
        expect((await refusal(s.progress.subscribe("dl_unknown", () => {}))).code).toBe("download.not_found");
        s.progress.finish("dl_unknown", "failed"); // a no-op, not a new entry
        expect((await refusal(s.progress.subscribe("dl_unknown", () => {}))).code).toBe("download.not_found");
        s.progress.create("dl_p1", 300);
        const seen: DownloadProgress[] = [];
        await until(async () => s.progress.subscribe("dl_p1", () => {}).then((u) => (u(), true), () => false));
        const unsubscribe = await s.progress.subscribe("dl_p1", (p) => seen.push(p));
        expect(seen[0]).toEqual({ bytes: 0, total: 300, state: "queued" });
        s.progress.start("dl_p1", 300, 0);
        s.progress.addBytes("dl_p1", 100);
        s.progress.addBytes("dl_p1", 200);
        s.progress.finish("dl_p1", "done");
        expect(await until(() => seen.at(-1)?.state === "done")).toBe(true);
        expect(seen.at(-1)).toEqual({ bytes: 300, total: 300, state: "done" });
        expect(seen.some((p) => p.state === "streaming")).toBe(true);
        unsubscribe();
        s.progress.start("dl_p1", 300, 100);
        await new Promise((r) => setTimeout(r, 100));
        expect(seen.at(-1)?.state).toBe("done"); // nothing after unsubscribing
      } finally {
        await s.close();
      }
    });

    itShared("a download streamed by one instance is followed through the other", async () => {
      const a = h.make(LIMITS);
      const b = h.make(LIMITS);
      try {
        a.progress.create("dl_x", 1000);
        await until(async () => b.progress.subscribe("dl_x", () => {}).then((u) => (u(), true), () => false));
        const seen: DownloadProgress[] = [];
        const unsubscribe = await b.progress.subscribe("dl_x", (p) => seen.push(p));
        a.progress.start("dl_x", 1000, 0);
        a.progress.addBytes("dl_x", 400);
        expect(await until(() => seen.some((p) => p.bytes === 400 && p.state === "streaming"))).toBe(true);
        a.progress.addBytes("dl_x", 600);
        a.progress.finish("dl_x", "done");
        expect(await until(() => seen.at(-1)?.state === "done")).toBe(true);
        expect(seen.at(-1)).toEqual({ bytes: 1000, total: 1000, state: "done" });
        unsubscribe();
      } finally {
        await a.close();
        await b.close();
      }
    });

    itShared("a failed download's cause reaches the other instance with its state, and a new stream of it starts without it", async () => {
      const a = h.make(LIMITS);
      const b = h.make(LIMITS);
      try {
        a.progress.create("dl_cause", 1000);
        await until(async () => b.progress.subscribe("dl_cause", () => {}).then((u) => (u(), true), () => false));
        const seen: DownloadProgress[] = [];
        const unsubscribe = await b.progress.subscribe("dl_cause", (p) => seen.push(p));
        a.progress.start("dl_cause", 1000, 0);
        a.progress.finish("dl_cause", "failed", { code: "upstream.refused", message: "The platform refused to send this video to our server. Please try again later." });
        expect(await until(() => seen.at(-1)?.state === "failed")).toBe(true);
        expect(seen.at(-1)?.error).toEqual({ code: "upstream.refused", message: "The platform refused to send this video to our server. Please try again later." });
        a.progress.start("dl_cause", 1000, 0);
        expect(await until(() => seen.at(-1)?.state === "streaming")).toBe(true);
        expect(seen.at(-1)).not.toHaveProperty("error");
        unsubscribe();
      } finally {
        await a.close();
        await b.close();
      }
    });

    it("a ZIP's files are heard at once, each change whole, and kept with the bytes that follow", async () => {
      const s = h.make(LIMITS);
      try {
        s.progress.create("dl_zip", null);
        await until(async () => s.progress.subscribe("dl_zip", () => {}).then((u) => (u(), true), () => false));
        const seen: DownloadProgress[] = [];
        const unsubscribe = await s.progress.subscribe("dl_zip", (p) => seen.push(p));
        s.progress.start("dl_zip", null, 0);
        const items: NonNullable<DownloadProgress["files"]>["items"] = [
          { status: "running", title: null },
          { status: "pending", title: null },
        ];
        s.progress.setFiles("dl_zip", { total: 2, done: 0, failed: 0, items });
        // a later change to the caller's array does not rewrite what was told
        items[0]!.status = "done";
        s.progress.setFiles("dl_zip", { total: 2, done: 1, failed: 1, items: [{ status: "done", title: "A" }, { status: "failed", title: null, error: "This video is private." }] });
        s.progress.addBytes("dl_zip", 500);
        s.progress.finish("dl_zip", "done");
        expect(await until(() => seen.at(-1)?.state === "done")).toBe(true);
        expect(seen.find((p) => p.files?.done === 0)?.files?.items[0]).toEqual({ status: "running", title: null });
        expect(seen.at(-1)).toEqual({
          bytes: 500,
          total: null,
          state: "done",
          files: { total: 2, done: 1, failed: 1, items: [{ status: "done", title: "A" }, { status: "failed", title: null, error: "This video is private." }] },
        });
        unsubscribe();
      } finally {
        await s.close();
      }
    });
  });

  describe(`${name}: link usage`, () => {
    it("a full download uses the link up; resumes are allowed within twice the size", async () => {
      const s = h.make(LIMITS);
      const exp = Date.now() + 60_000;
      const id = `dl_${Math.random().toString(36).slice(2)}`;
      try {
        await s.linkUsage.admit(id, "full", exp);
        await s.linkUsage.admit(id, "full", exp); // a retry before the first one finished
        await s.linkUsage.setSize(id, 100);
        await s.linkUsage.admit(id, "resume", exp);
        s.linkUsage.addBytes(id, 150);
        await s.linkUsage.admit(id, "full", exp);
        await s.linkUsage.complete(id);
        expect(await refusal(s.linkUsage.admit(id, "full", exp))).toMatchObject({ code: "download.link_used" });
        await s.linkUsage.admit(id, "resume", exp);
        s.linkUsage.addBytes(id, 50);
        expect(await until(async () => (await s.linkUsage.admit(id, "resume", exp).then(() => false, () => true)))).toBe(true);
        expect(await refusal(s.linkUsage.admit(id, "resume", exp))).toMatchObject({ code: "download.link_used" });
      } finally {
        await s.close();
      }
    });

    itShared("a link downloaded in full through one instance is used up on the other", async () => {
      const a = h.make(LIMITS);
      const b = h.make(LIMITS);
      const exp = Date.now() + 60_000;
      try {
        await a.linkUsage.admit("dl_shared", "full", exp);
        await a.linkUsage.complete("dl_shared");
        expect(await refusal(b.linkUsage.admit("dl_shared", "full", exp))).toMatchObject({ code: "download.link_used" });
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
