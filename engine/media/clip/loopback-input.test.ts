import http from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { serveLoopbackInput, WINDOW_BYTES } from "./loopback-input.ts";

const data = Buffer.alloc(1_000_000, 7);

function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on("error", reject);
  });
}

async function start() {
  const reads: Array<{ start: number; end?: number }> = [];
  const controller = new AbortController();
  const failures: Error[] = [];
  const input = await serveLoopbackInput({
    read: async (range) => {
      reads.push(range);
      return { body: Readable.from([data.subarray(range.start, (range.end ?? data.length - 1) + 1)]), total: data.length };
    },
    total: null,
    signal: controller.signal,
    onFailure: (err) => failures.push(err),
  });
  return { input, reads, controller, failures };
}

describe("the loopback input", () => {
  it("listens on 127.0.0.1 and answers only its own unguessable path", async () => {
    const { input, reads, controller } = await start();
    const url = new URL(input.url);
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.pathname.length).toBeGreaterThan(30);
    expect((await fetchRaw(`${url.origin}/`)).status).toBe(404);
    expect((await fetchRaw(`${url.origin}${url.pathname}x`)).status).toBe(404);
    expect(reads).toEqual([]);
    controller.abort();
  });

  it("answers a window at a time, larger while reads follow on, back to the first after a seek", async () => {
    const { input, reads, controller } = await start();
    const first = await fetchRaw(input.url, { range: "bytes=0-" });
    expect(first.status).toBe(206);
    expect(first.headers["content-range"]).toBe(`bytes 0-${WINDOW_BYTES.first - 1}/${data.length}`);
    expect(first.body.length).toBe(WINDOW_BYTES.first);
    const next = await fetchRaw(input.url, { range: `bytes=${WINDOW_BYTES.first}-` });
    expect(next.body.length).toBe(Math.round(WINDOW_BYTES.first * WINDOW_BYTES.growth));
    const seek = await fetchRaw(input.url, { range: "bytes=500000-" });
    expect(seek.body.length).toBe(WINDOW_BYTES.first);
    const last = await fetchRaw(input.url, { range: `bytes=${data.length - 10}-` });
    expect(last.headers["content-range"]).toBe(`bytes ${data.length - 10}-${data.length - 1}/${data.length}`);
    expect((await fetchRaw(input.url, { range: `bytes=${data.length}-` })).status).toBe(416);
    expect(reads.map((r) => r.start)).toEqual([0, WINDOW_BYTES.first, 500000, data.length - 10]);
    controller.abort();
  });

  it("closes when its download is torn down", async () => {
    const { input, controller } = await start();
    controller.abort();
    await expect(fetchRaw(input.url)).rejects.toThrow();
  });
});
