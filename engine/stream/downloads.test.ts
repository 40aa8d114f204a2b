import { describe, expect, it } from "vitest";
import { contentDisposition, createAdmission, createProgressRegistry, type DownloadProgress } from "./downloads.ts";

describe("contentDisposition (RFC 6266)", () => {
  it("keeps plain ASCII names as they are", () => {
    expect(contentDisposition("youtube-thumbnail-abc.jpg")).toBe(`attachment; filename="youtube-thumbnail-abc.jpg"; filename*=UTF-8''youtube-thumbnail-abc.jpg`);
  });

  it("gives an ASCII fallback and the exact UTF-8 name", () => {
    const header = contentDisposition("Café — 日本語 (live).mp4");
    expect(header).toBe(`attachment; filename="Cafe _ ___ (live).mp4"; filename*=UTF-8''Caf%C3%A9%20%E2%80%94%20%E6%97%A5%E6%9C%AC%E8%AA%9E%20%28live%29.mp4`);
  });

  it("cannot be broken out of by quotes, separators or control characters", () => {
    const header = contentDisposition('a"; filename=evil.exe\r\nX-Injected: 1/..\\b.mp3');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.match(/"/g)?.length).toBe(2);
    expect(header).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
    expect(contentDisposition("")).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });
});

describe("admission", () => {
  it("limits concurrent downloads with download.busy and Retry-After", () => {
    const a = createAdmission({ maxConcurrent: 2, perIpPerHour: 0 });
    const r1 = a.acquire();
    a.acquire();
    expect(() => a.acquire()).toThrow(expect.objectContaining({ code: "download.busy", status: 503, retryAfter: 5 }));
    r1();
    r1(); // idempotent
    expect(a.active()).toBe(1);
    expect(() => a.acquire()).not.toThrow();
  });

  it("limits downloads per IP per hour with 429 and the time until a slot frees", () => {
    let t = 1_000_000;
    const a = createAdmission({ maxConcurrent: 10, perIpPerHour: 3, now: () => t });
    a.hit("1.1.1.1");
    t += 10_000;
    a.hit("1.1.1.1");
    a.hit("1.1.1.1");
    a.hit("2.2.2.2");
    let err: { code?: string; status?: number; retryAfter?: number; message?: string } = {};
    try {
      a.hit("1.1.1.1");
    } catch (e) {
      err = e as typeof err;
    }
    expect(err).toMatchObject({ code: "download.rate_limited", status: 429, message: "You've made too many requests. Please wait a moment and try again." });
    expect(err.retryAfter).toBe(3600 - 10);
    t += 3600_000 - 10_000 + 1;
    expect(() => a.hit("1.1.1.1")).not.toThrow();
  });

  it("0 disables the per-IP limit", () => {
    const a = createAdmission({ maxConcurrent: 1, perIpPerHour: 0 });
    for (let i = 0; i < 1000; i++) a.hit("9.9.9.9");
  });
});

describe("progress registry", () => {
  it("tells subscribers the state at once and then on changes", () => {
    let t = 0;
    const reg = createProgressRegistry({ intervalMs: 100, now: () => t });
    reg.create("d1", 1000);
    const seen: DownloadProgress[] = [];
    const off = reg.subscribe("d1", (p) => seen.push(p));
    reg.start("d1", 1000);
    t = 200;
    reg.addBytes("d1", 400);
    t = 250;
    reg.addBytes("d1", 100); // throttled
    reg.finish("d1", "done");
    off();
    expect(seen.map((p) => p.state)).toEqual(["queued", "streaming", "streaming", "done"]);
    expect(seen.at(-1)).toEqual({ bytes: 500, total: 1000, state: "done" });
  });

  it("unknown ids are download.not_found", () => {
    const reg = createProgressRegistry();
    expect(() => reg.subscribe("nope", () => {})).toThrow(expect.objectContaining({ code: "download.not_found" }));
  });

  it("forgets finished downloads after the retention time", () => {
    let t = 0;
    const reg = createProgressRegistry({ retainMs: 1000, now: () => t });
    reg.create("old", null);
    reg.finish("old", "done");
    t = 5000;
    reg.create("new", null);
    expect(reg.has("old")).toBe(false);
    expect(reg.size()).toBe(1);
  });
});
