import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { contentDisposition, streamToResponse } from "./stream-to-response.ts";

const chunks = [Buffer.alloc(1000, 1), Buffer.alloc(1000, 2), Buffer.alloc(500, 3)];
const total = chunks.reduce((n, c) => n + c.length, 0);

let server: http.Server | undefined;
afterEach(async () => {
  if (!server) return; // the contentDisposition tests start no server
  server.closeAllConnections();
  await new Promise((r) => server!.close(r));
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

  it("drops bidi and invisible format controls from both names", () => {
    const header = contentDisposition("clip\u202Ecod.exe\u2066\u200B\uFEFF\u061C\u200E.mp4");
    expect(header).toBe(`attachment; filename="clipcod.exe.mp4"; filename*=UTF-8''clipcod.exe.mp4`);
    for (const c of ["\u200B", "\u200C", "\u200D", "\u200E", "\u200F", "\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u061C", "\uFEFF"]) {
      const encoded = encodeURIComponent(c);
      const h = contentDisposition(`Caf\u00e9${c}.m4a`);
      expect(h, `U+${c.charCodeAt(0).toString(16)}`).toBe(`attachment; filename="Cafe.m4a"; filename*=UTF-8''Caf%C3%A9.m4a`);
      expect(h).not.toContain(encoded);
    }
    expect(contentDisposition("\u202E\u2067")).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });
});

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
