import { describe, expect, it } from "vitest";
import { createStreamingActivity } from "../media/streaming-activity.ts";
import { createAdmission } from "./admission.ts";

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

  it("counts its streaming slots in the process's streaming activity (the warm pools wait for a quiet moment)", () => {
    const activity = createStreamingActivity();
    const a = createAdmission({ maxConcurrent: 2, perIpPerHour: 0, activity });
    const b = createAdmission({ maxConcurrent: 2, perIpPerHour: 0, activity });
    const r1 = a.acquire();
    const r2 = b.acquire();
    expect(activity.streaming()).toBe(2);
    r1();
    r1();
    expect(activity.streaming()).toBe(1);
    r2();
    expect(activity.streaming()).toBe(0);
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
    expect(() => a.check("9.9.9.9")).not.toThrow();
  });

  it("check() tells an IP at its limit without counting; a refund gives the download back", () => {
    const a = createAdmission({ maxConcurrent: 10, perIpPerHour: 2 });
    for (let i = 0; i < 5; i++) a.check("1.1.1.1"); // checks never count
    a.hit("1.1.1.1");
    const refund = a.hit("1.1.1.1");
    expect(() => a.check("1.1.1.1")).toThrow(expect.objectContaining({ code: "download.rate_limited", status: 429 }));
    refund();
    refund(); // idempotent: gives back one download, not two
    expect(() => a.check("1.1.1.1")).not.toThrow();
    a.hit("1.1.1.1");
    expect(() => a.hit("1.1.1.1")).toThrow(expect.objectContaining({ code: "download.rate_limited" }));
  });

  it("caps concurrent streams per IP and per link with 429, Retry-After and the rate-limit wording", () => {
    const a = createAdmission({ maxConcurrent: 100, perIpPerHour: 0, perIpConcurrent: 3, perLinkConcurrent: 2 });
    const r1 = a.acquireStream("1.1.1.1", "dl_a");
    a.acquireStream("1.1.1.1", "dl_a");
    // a third stream of the same link
    expect(() => a.acquireStream("2.2.2.2", "dl_a")).toThrow(
      expect.objectContaining({ code: "download.rate_limited", status: 429, retryAfter: 5, message: "You've made too many requests. Please wait a moment and try again." }),
    );
    a.acquireStream("1.1.1.1", "dl_b");
    // a fourth stream of the same IP
    expect(() => a.acquireStream("1.1.1.1", "dl_c")).toThrow(expect.objectContaining({ code: "download.rate_limited", retryAfter: 5 }));
    expect(() => a.acquireStream("2.2.2.2", "dl_c")).not.toThrow();
    r1();
    r1(); // idempotent
    expect(() => a.acquireStream("1.1.1.1", "dl_a")).not.toThrow();
    expect(() => a.acquireStream("1.1.1.1", "dl_d")).toThrow(expect.objectContaining({ code: "download.rate_limited" }));
  });
});
