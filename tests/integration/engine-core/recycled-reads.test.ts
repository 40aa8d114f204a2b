/**
 * Relayed bytes are views of socket reads that are used again once written
 * (engine/outbound/read-buffers.ts). Relays at once, to stalled and fast readers and to one that
 * leaves mid-way, each with its own content, must each deliver exactly their file: a buffer
 * reused too early would show as another relay's bytes in this one.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConnectionPool } from "#engine/outbound/connection-pool.ts";
import { createMediaExchange } from "#engine/outbound/media-exchange.ts";
import { readBufferCounts } from "#engine/outbound/read-buffers.ts";
import { streamToResponse } from "#engine/serve/stream-to-response.ts";
import { get } from "./engine-fixture.ts";

const SIZE = 8 * 1024 * 1024 + 12345;

/** distinct bytes per name: a piece of one file in another is caught */
const contents = new Map<string, Buffer>();
function contentOf(name: string): Buffer {
  const known = contents.get(name);
  if (known) return known;
  // a 4 KiB block from the name's hash, each later block the previous one rotated by a byte
  const seed = Buffer.alloc(4096);
  let block = createHash("sha256").update(name).digest();
  for (let off = 0; off < seed.length; off += block.length) {
    block.copy(seed, off);
    block = createHash("sha256").update(block).digest();
  }
  const out = Buffer.alloc(SIZE);
  for (let off = 0, k = 0; off < SIZE; off += seed.length, k++) {
    seed.copy(out, off, k % seed.length);
    seed.copy(out, off + seed.length - (k % seed.length), 0, k % seed.length);
  }
  contents.set(name, out);
  return out;
}

const pool = createConnectionPool({ guardedLookup: () => undefined });
const exchange = createMediaExchange({ pool, userAgent: "test" });
let origin: http.Server;
let relay: http.Server;
let relayUrl = "";

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    const name = req.url!.slice(1);
    const body = contentOf(name);
    if (name.startsWith("chunked")) {
      // uneven chunks: the chunked reader hands on slices of each read
      res.writeHead(200, { "content-type": "application/octet-stream" });
      let off = 0;
      const next = () => {
        while (off < body.length) {
          const n = Math.min(7000 + (off % 5000), body.length - off);
          const ok = res.write(body.subarray(off, off + n));
          off += n;
          if (!ok) return void res.once("drain", next);
        }
        res.end();
      };
      next();
      return;
    }
    res.writeHead(200, { "content-length": body.length, "content-type": "application/octet-stream" });
    res.end(body);
  });
  await new Promise<void>((r) => origin.listen(0, "127.0.0.1", r));
  const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  relay = http.createServer((req, res) => {
    void exchange(new URL(originUrl + req.url), { method: "GET", headers: new Headers(), guarded: false, originalHost: null }, 10_000, null).then((up) => {
      const headers: Record<string, string> = { "content-type": "application/octet-stream" };
      if (up.headers["content-length"]) headers["content-length"] = up.headers["content-length"];
      streamToResponse(res, { status: 200, headers, body: up, length: null, teardown: () => up.destroy() }, { filename: "x.bin", onBytes: () => {}, onEnd: () => {} });
    });
  });
  await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});
afterAll(async () => {
  pool.close();
  await new Promise((r) => relay?.close(r));
  await new Promise((r) => origin?.close(r));
});

/**
 * A GET whose reader stalls: it reads nothing for `stallMs`, so the kernel's buffers fill, the
 * relay's writes wait and its pieces queue in memory (views of read buffers that must not be
 * reused meanwhile), then it reads everything.
 */
function stalledGet(url: string, stallMs: number): Promise<Buffer> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`GET ${pathname} HTTP/1.0\r\nHost: x\r\n\r\n`);
      socket.pause();
      setTimeout(() => socket.resume(), stallMs);
    });
    const parts: Buffer[] = [];
    socket.on("data", (c: Buffer) => parts.push(c));
    socket.on("end", () => {
      const all = Buffer.concat(parts);
      const head = all.indexOf("\r\n\r\n");
      if (!all.subarray(0, 12).toString().includes("200") || head < 0) return reject(new Error(`unexpected answer: ${all.subarray(0, 60).toString()}`));
      resolve(all.subarray(head + 4));
    });
    socket.on("error", reject);
  });
}

describe("recycled read buffers under concurrent relays", () => {
  it("gives every relay exactly its own bytes while buffers are reused between them", async () => {
    const before = readBufferCounts();
    const stalled = [stalledGet(`${relayUrl}/stalled-a`, 600), stalledGet(`${relayUrl}/chunked-stalled`, 700)];
    // the others start once the stalled relays have filled the kernel's buffers and queue their
    // pieces; four more stalled relays then hold enough buffers at once to take every free one
    await new Promise((r) => setTimeout(r, 150));
    const more = ["b", "c", "d", "e"].map((n) => stalledGet(`${relayUrl}/stalled-${n}`, 300));
    const [fastA, fastB, chunkedA, leaving] = await Promise.all([
      get(`${relayUrl}/fast-a`),
      get(`${relayUrl}/fast-b`),
      get(`${relayUrl}/chunked-a`),
      // leaves after 200 KB: the views it did not write are dropped, never given back
      get(`${relayUrl}/leaving`, {}, { abortAfterBytes: 200 * 1024 }),
    ]);
    const [slowA, slowB] = await Promise.all(stalled);
    const others = await Promise.all(more);
    others.forEach((body, i) => expect(body.equals(contentOf(`stalled-${"bcde"[i]}`))).toBe(true));
    expect(fastA.body.equals(contentOf("fast-a"))).toBe(true);
    expect(fastB.body.equals(contentOf("fast-b"))).toBe(true);
    expect(slowA!.equals(contentOf("stalled-a"))).toBe(true);
    expect(slowB!.equals(contentOf("chunked-stalled"))).toBe(true);
    expect(chunkedA.body.equals(contentOf("chunked-a"))).toBe(true);
    expect(leaving.outcome).toBe("error");
    // after the one that left, the next relays still get their exact files
    const [after, afterChunked] = await Promise.all([get(`${relayUrl}/after`), get(`${relayUrl}/chunked-after`)]);
    expect(after.body.equals(contentOf("after"))).toBe(true);
    expect(afterChunked.body.equals(contentOf("chunked-after"))).toBe(true);
    // the relays did read into reused buffers: most reads, not a few
    const counts = readBufferCounts();
    const reads = counts.reused + counts.fresh - before.reused - before.fresh;
    expect(counts.reused - before.reused).toBeGreaterThan(reads / 2);
  });
});
