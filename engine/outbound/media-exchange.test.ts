import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import https from "node:https";
import net, { type AddressInfo, type LookupFunction } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createConnectionPool } from "./connection-pool.ts";
import { createGuardedLookup } from "./guarded-lookup.ts";
import { createMediaExchange, type MediaRequest } from "./media-exchange.ts";

/**
 * The media exchange against a raw TCP peer that answers exactly the bytes a test gives it:
 * framing (length, chunked, until close), 1xx heads, keep-alive reuse and its failure, and the
 * answers it must refuse.
 */
type Answer = (request: string, socket: net.Socket) => void;
let answer: Answer = () => undefined;
const connections: net.Socket[] = [];
const requests: string[] = [];
let server: net.Server;
let base: string;

beforeAll(async () => {
  server = net.createServer((socket) => {
    connections.push(socket);
    let pending = "";
    socket.on("data", (d) => {
      pending += d.toString("latin1");
      let end: number;
      while ((end = pending.indexOf("\r\n\r\n")) !== -1) {
        const request = pending.slice(0, end + 4);
        pending = pending.slice(end + 4);
        requests.push(request);
        answer(request, socket);
      }
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const s of connections) s.destroy();
  server.close();
});

const lookup = createGuardedLookup(async () => [{ address: "127.0.0.1", family: 4 }]);
let pool = createConnectionPool({ guardedLookup: lookup });
let exchange = createMediaExchange({ pool, userAgent: "media-test" });
afterEach(() => {
  pool.close();
  pool = createConnectionPool({ guardedLookup: lookup });
  exchange = createMediaExchange({ pool, userAgent: "media-test" });
  requests.length = 0;
});

const get = (headers: Record<string, string> = {}): MediaRequest => ({ method: "GET", headers: new Headers(headers), guarded: false, originalHost: null });

async function body(res: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of res) parts.push(c as Buffer);
  return Buffer.concat(parts).toString("latin1");
}

const fetchText = async (p: string, req = get()) => {
  const res = await exchange(new URL(`${base}${p}`), req, 2_000, undefined);
  return { res, text: await body(res) };
};

describe("media exchange", () => {
  it("sends a well-formed request: path, Host, the caller's headers, the default user agent", async () => {
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    const { res, text } = await fetchText("/a/b.mp4?x=1", get({ range: "bytes=0-1" }));
    expect(text).toBe("ok");
    expect(res.statusCode).toBe(200);
    expect(res.statusMessage).toBe("OK");
    const [line, ...headers] = requests[0]!.trim().split("\r\n");
    expect(line).toBe("GET /a/b.mp4?x=1 HTTP/1.1");
    expect(headers).toEqual(expect.arrayContaining([`Host: ${new URL(base).host}`, "range: bytes=0-1", "user-agent: media-test"]));
  });

  it("reuses a kept-alive connection, and opens a new one when the peer says close", async () => {
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc");
    const before = connections.length;
    expect((await fetchText("/1")).text).toBe("abc");
    expect((await fetchText("/2")).text).toBe("abc");
    expect(connections.length - before).toBe(1);
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc");
    expect((await fetchText("/3")).text).toBe("abc");
    expect((await fetchText("/4")).text).toBe("abc");
    expect(connections.length - before).toBe(2);
  });

  it("sends again on a new connection when the pooled one was closed by the peer", async () => {
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1");
    await fetchText("/warm");
    // the peer ends every connection it has (as a server's keep-alive timeout does) without a word
    answer = (_r, s) => s.destroy();
    const open = connections.filter((s) => !s.destroyed);
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    for (const s of open) s.end();
    await new Promise((r) => setTimeout(r, 20));
    expect((await fetchText("/again")).text).toBe("ok");
  });

  it("decodes a chunked body with extensions and trailers, split anywhere", async () => {
    const wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n";
    answer = (_r, s) => {
      // one byte at a time: every state boundary falls between two reads
      let i = 0;
      const next = () => {
        if (i < wire.length) s.write(wire[i++]!, () => setImmediate(next));
      };
      next();
    };
    expect((await fetchText("/chunked")).text).toBe("hello world");
    // and the connection is reused afterwards
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n!");
    const before = connections.length;
    expect((await fetchText("/after")).text).toBe("!");
    expect(connections.length).toBe(before);
  });

  it("skips 1xx heads (103 Early Hints) and reads to the close when no length is given", async () => {
    answer = (_r, s) => {
      s.write("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n");
      s.end("HTTP/1.0 200 OK\r\nContent-Type: video/mp4\r\n\r\nuntil-close");
    };
    const { res, text } = await fetchText("/close");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("video/mp4");
    expect(text).toBe("until-close");
  });

  it("answers HEAD and 204 without a body, and keeps the connection", async () => {
    answer = (r, s) => s.write(r.startsWith("HEAD") ? "HTTP/1.1 200 OK\r\nContent-Length: 999\r\n\r\n" : "HTTP/1.1 204 No Content\r\n\r\n");
    const before = connections.length;
    const head = await exchange(new URL(`${base}/h`), { ...get(), method: "HEAD" }, 2_000, undefined);
    expect(head.headers["content-length"]).toBe("999");
    expect(await body(head)).toBe("");
    expect((await fetchText("/204")).text).toBe("");
    expect(connections.length - before).toBe(1);
  });

  it.each([
    ["both Transfer-Encoding and Content-Length", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"],
    ["two different lengths", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello"],
    ["a folded header", "HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\nContent-Length: 0\r\n\r\n"],
    ["a status line that is not HTTP/1.x", "HTTP/2 200\r\n\r\n"],
    ["a header line without a name", "HTTP/1.1 200 OK\r\n: v\r\n\r\n"],
    ["a head over 16 KiB", `HTTP/1.1 200 OK\r\nX-Big: ${"a".repeat(17 * 1024)}\r\n\r\n`],
    ["a gzip transfer coding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"],
  ])("refuses %s", async (_what, wire) => {
    answer = (_r, s) => s.write(wire);
    await expect(exchange(new URL(`${base}/bad`), get(), 2_000, undefined)).rejects.toMatchObject({ code: "HPE_INVALID_RESPONSE" });
  });

  it("fails a chunked body with a bad size line, and a body cut before its length", async () => {
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
    await expect(fetchText("/bad-chunk")).rejects.toMatchObject({ code: "HPE_INVALID_RESPONSE" });
    answer = (_r, s) => s.end("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
    await expect(fetchText("/cut")).rejects.toMatchObject({ code: "ECONNRESET" });
  });

  it("delivers the stated length only, and never reuses a connection that sent more", async () => {
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcEXTRA");
    const before = connections.length;
    expect((await fetchText("/extra")).text).toBe("abc");
    answer = (_r, s) => s.write("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz");
    expect((await fetchText("/next")).text).toBe("z");
    expect(connections.length - before).toBe(2);
  });

  it("refuses a request header that would split the request", async () => {
    const headers = new Headers();
    await expect(exchange(new URL(`${base}/x`), { method: "GET", headers, guarded: false, originalHost: "evil\r\nX-Injected: 1" }, 2_000, undefined)).rejects.toMatchObject({
      code: "ERR_INVALID_CHAR",
    });
  });

  it("holds the socket while the consumer is full (backpressure), then delivers every byte", async () => {
    const big = Buffer.alloc(8 * 1024 * 1024, 7);
    answer = (_r, s) => {
      s.write(`HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n`);
      s.write(big);
    };
    const res = await exchange(new URL(`${base}/big`), get(), 2_000, undefined);
    await new Promise((r) => setTimeout(r, 100));
    // the body's buffer is bounded: the rest waits in the socket, not in memory
    expect(res.readableLength).toBeLessThanOrEqual(2 * 1024 * 1024);
    let n = 0;
    for await (const c of res) n += (c as Buffer).length;
    expect(n).toBe(big.length);
  });
});

describe("media exchange over TLS", () => {
  let tlsServer: https.Server;
  let ca: Buffer;
  let port: number;
  let secureConnections = 0;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "media-tls-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=media.test", "-addext", "subjectAltName=DNS:media.test", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { stdio: "ignore" });
    ca = readFileSync(path.join(dir, "cert.pem"));
    tlsServer = https.createServer({ key: readFileSync(path.join(dir, "key.pem")), cert: ca }, (_req, res) => res.writeHead(200, { "content-length": "6" }).end("secret"));
    tlsServer.on("secureConnection", () => secureConnections++);
    await new Promise<void>((r) => tlsServer.listen(0, "127.0.0.1", r));
    port = (tlsServer.address() as AddressInfo).port;
  });
  afterAll(() => {
    tlsServer.closeAllConnections();
    tlsServer.close();
  });

  // every name is 127.0.0.1 here (the real guarded lookup refuses loopback, as it should)
  const loopback: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: "127.0.0.1", family: 4 }]);
    else callback(null, "127.0.0.1", 4);
  };

  it("verifies the certificate for the name and reuses the connection", async () => {
    const tlsPool = createConnectionPool({ guardedLookup: loopback, ca });
    const tlsExchange = createMediaExchange({ pool: tlsPool, userAgent: "t" });
    try {
      const guarded = { ...get(), guarded: true };
      const first = await tlsExchange(new URL(`https://media.test:${port}/a`), guarded, 2_000, undefined);
      expect(await body(first)).toBe("secret");
      const second = await tlsExchange(new URL(`https://media.test:${port}/b`), guarded, 2_000, undefined);
      expect(await body(second)).toBe("secret");
      expect(secureConnections).toBe(1);
      // a name the certificate does not carry is refused
      const strictPool = createConnectionPool({ guardedLookup: loopback, ca });
      await expect(createMediaExchange({ pool: strictPool, userAgent: "t" })(new URL(`https://other.test:${port}/`), guarded, 2_000, undefined)).rejects.toMatchObject({
        code: "ERR_TLS_CERT_ALTNAME_INVALID",
      });
      strictPool.close();
    } finally {
      tlsPool.close();
    }
  });
});
