import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { OutboundInit, OutboundOpen, OutboundResponse } from "../outbound/outbound-fetch.ts";
import { requestRange, type RangeRequester, type RangeTarget } from "./range-request.ts";
import { createSingleFlightRefresh } from "./single-flight-refresh.ts";

type Answer = { status: number; headers?: Record<string, string> };

/** an upstream answering from a script, recording what was asked */
function upstream(answer: (url: string, range: string) => Answer) {
  const asked: Array<{ url: string; range: string; urgent: boolean | undefined }> = [];
  const open: OutboundOpen = async (url, init: OutboundInit = {}) => {
    const range = new Headers(init.headers).get("range") ?? "";
    asked.push({ url: String(url), range, urgent: init.urgent });
    const a = answer(String(url), range);
    const res: OutboundResponse = { status: a.status, statusText: "", headers: new Headers(a.headers), url: String(url), redirected: false, body: new PassThrough() };
    return res;
  };
  return { open, asked };
}

const target = (over: Partial<RangeTarget> = {}): RangeTarget => ({ url: "https://cdn.example/v.mp4", end: null, total: null, contentType: null, ...over });
const requester = (open: OutboundOpen, t: RangeTarget, over: Partial<RangeRequester> = {}): RangeRequester => ({ open, target: t, chunkBytes: 1000, signal: new AbortController().signal, ...over });

describe("requestRange", () => {
  it("asks a chunk's worth, and learns the length, the end and the type from a 206", async () => {
    const { open, asked } = upstream(() => ({ status: 206, headers: { "content-range": "bytes 0-999/5000", "content-type": "video/mp4" } }));
    const t = target();
    const chunk = await requestRange(requester(open, t), 0, undefined, false);
    expect(asked).toEqual([{ url: t.url, range: "bytes=0-999", urgent: false }]);
    expect(chunk).toMatchObject({ start: 0, last: 999, expect: 1000, skip: 0, full: false });
    expect(t).toMatchObject({ total: 5000, end: 4999, contentType: "video/mp4" });
    // the next chunk stops at the end it learned
    const { open: open2, asked: asked2 } = upstream(() => ({ status: 206, headers: { "content-range": "bytes 4500-4999/5000" } }));
    await requestRange(requester(open2, t), 4500);
    expect(asked2[0]!.range).toBe("bytes=4500-4999");
  });

  it("refuses a 206 that starts elsewhere than asked", async () => {
    const { open } = upstream(() => ({ status: 206, headers: { "content-range": "bytes 0-999/5000" } }));
    await expect(requestRange(requester(open, target()), 100)).rejects.toMatchObject({ code: "upstream.fetch_failed", detail: expect.stringContaining("offset 100") });
  });

  it("reads a 200 as the whole file from byte 0: skips to the offset, ends at its length", async () => {
    const { open } = upstream(() => ({ status: 200, headers: { "content-length": "3000" } }));
    const t = target({ end: 9999 });
    const chunk = await requestRange(requester(open, t), 1200);
    expect(chunk).toMatchObject({ start: 1200, skip: 1200, full: true, last: 2999, expect: 1800 });
    expect(t).toMatchObject({ total: 3000, end: 2999 });
  });

  it("takes a 416 at the end as an empty tail, and 403/404 without a refresh as an expired link", async () => {
    const t = target({ total: 5000 });
    expect(await requestRange(requester(upstream(() => ({ status: 416 })).open, t), 5000)).toMatchObject({ expect: 0, last: null });
    await expect(requestRange(requester(upstream(() => ({ status: 416 })).open, t), 10)).rejects.toMatchObject({ code: "upstream.fetch_failed" });
    await expect(requestRange(requester(upstream(() => ({ status: 404 })).open, target()), 0)).rejects.toMatchObject({ code: "upstream.expired" });
    await expect(requestRange(requester(upstream(() => ({ status: 403 })).open, target()), 0)).rejects.toMatchObject({ code: "upstream.expired" });
  });

  it("after a 403, asks again with the refreshed URL", async () => {
    const { open, asked } = upstream((url) => (url.includes("fresh") ? { status: 206, headers: { "content-range": "bytes 0-999/1000" } } : { status: 403 }));
    const t = target();
    const refresher = createSingleFlightRefresh(async () => void (t.url = "https://cdn.example/v.mp4?fresh=1"), { max: 3 });
    const chunk = await requestRange(requester(open, t, { refresher }), 0);
    expect(chunk.last).toBe(999);
    expect(asked.map((a) => a.url)).toEqual(["https://cdn.example/v.mp4", "https://cdn.example/v.mp4?fresh=1"]);
  });
});
