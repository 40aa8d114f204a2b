import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { streamToResponse } from "./downloads.ts";

const chunks = [Buffer.alloc(1000, 1), Buffer.alloc(1000, 2), Buffer.alloc(500, 3)];
const total = chunks.reduce((n, c) => n + c.length, 0);

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A server answering with the chunks (Content-Length set); `beforeEnd` as given. */
async function serve(beforeEnd?: () => Promise<void>): Promise<string> {
  server = http.createServer((_req, res) => {
    streamToResponse(
      res,
      { status: 200, headers: { "content-type": "video/mp4", "content-length": String(total) }, body: Readable.from(chunks), length: total, teardown: () => {} },
      { filename: "a.mp4", onBytes: () => {}, onEnd: () => {}, beforeEnd },
    );
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

/** Bytes received so far, and a promise of the whole body. */
function download(url: string) {
  const state = { bytes: 0 };
  const done = new Promise<number>((resolve, reject) => {
    http
      .get(url, (res) => {
        res.on("data", (c: Buffer) => (state.bytes += c.length));
        res.on("end", () => resolve(state.bytes));
      })
      .on("error", reject);
  });
  return { state, done };
}

describe("streamToResponse's beforeEnd", () => {
  it("holds the last chunk back until it has settled, then sends it", async () => {
    let release!: () => void;
    let called = false;
    const url = await serve(() => {
      called = true;
      return new Promise<void>((r) => (release = r));
    });
    const d = download(url);
    while (!called) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100));
    // everything but the last chunk has arrived; the client cannot have the whole file yet
    expect(d.state.bytes).toBe(total - chunks.at(-1)!.length);
    release();
    await expect(d.done).resolves.toBe(total);
  });

  it("still sends the last chunk when it fails", async () => {
    const url = await serve(() => Promise.reject(new Error("store unreachable")));
    await expect(download(url).done).resolves.toBe(total);
  });

  it("without it, sends the body as it comes", async () => {
    const url = await serve();
    await expect(download(url).done).resolves.toBe(total);
  });
});
