import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, test } from "vitest";
import { guardConnections, serverTimeoutOptions, type ConnectionLimits } from "./connection-guards.ts";

const LIMITS: ConnectionLimits = { headersTimeoutMs: 1500, requestTimeoutMs: 2000, bodyMinBytes: 100, bodyWindowMs: 500, maxConnectionsPerIp: 3 };
let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A server that reads every body, answers a POST with its length and streams a GET for `?ms`. */
async function start(limits: ConnectionLimits, trusted: (a: string | undefined) => boolean = () => false): Promise<number> {
  server = createServer(serverTimeoutOptions(limits), (req, res) => {
    if (req.method === "POST") {
      let n = 0;
      req.on("data", (c: Buffer) => (n += c.length));
      req.on("end", () => res.end(`got ${n}`));
      return;
    }
    const ms = Number(new URL(req.url ?? "/", "http://x").searchParams.get("ms") ?? 0);
    const started = Date.now();
    const tick = setInterval(() => {
      if (Date.now() - started >= ms) {
        clearInterval(tick);
        res.end("done");
      } else res.write("x".repeat(100));
    }, 100);
    res.on("close", () => clearInterval(tick));
  });
  guardConnections(server, limits, trusted);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

function open(port: number): Promise<{ socket: Socket; text: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    sockets.push(socket);
    let buf = "";
    socket.on("data", (c: Buffer) => (buf += c.toString("latin1")));
    const ended = new Promise<void>((r) => socket.on("close", () => r()));
    socket.once("error", () => undefined);
    socket.once("connect", () => resolve({ socket, text: () => buf, ended }));
    socket.once("error", reject);
  });
}

test("a body that trickles in is cut with a 408 after one quiet window, not minutes later", async () => {
  const port = await start(LIMITS);
  const c = await open(port);
  c.socket.write("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n");
  const started = Date.now();
  const drip = setInterval(() => c.socket.writable && c.socket.write("a"), 100);
  await c.ended;
  clearInterval(drip);
  expect(c.text()).toMatch(/^HTTP\/1\.1 408 /);
  expect(Date.now() - started).toBeLessThan(LIMITS.bodyWindowMs * 3);
});

test("a slow but steady upload arrives whole", async () => {
  const port = await start(LIMITS);
  const c = await open(port);
  c.socket.write("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 1500\r\nConnection: close\r\n\r\n");
  for (let i = 0; i < 10; i++) {
    c.socket.write("b".repeat(150));
    await sleep(150);
  }
  await c.ended;
  expect(c.text()).toMatch(/^HTTP\/1\.1 200 [\s\S]*got 1500$/);
});

test("a response streaming for longer than every request timeout is not cut", async () => {
  const port = await start(LIMITS);
  const res = await fetch(`http://127.0.0.1:${port}/?ms=${LIMITS.requestTimeoutMs * 2}`);
  const body = await res.text();
  expect(res.status).toBe(200);
  expect(body.endsWith("done")).toBe(true);
});

test("a response already under way is never cut for a body its handler does not read", async () => {
  const port = await start(LIMITS);
  const c = await open(port);
  // a GET that declares a body it never sends: the handler streams without reading it (for less
  // than requestTimeoutMs, which ends any request whose body never arrives)
  c.socket.write(`GET /?ms=${LIMITS.bodyWindowMs * 3} HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\n`);
  await c.ended;
  expect(c.text()).toMatch(/^HTTP\/1\.1 200 [\s\S]*done\r\n0\r\n\r\n$/);
});

test("one address may hold maxConnectionsPerIp connections; the next is answered 429 and closed", async () => {
  const port = await start(LIMITS);
  const held = await Promise.all([open(port), open(port), open(port)]);
  const extra = await open(port);
  await extra.ended;
  expect(extra.text()).toMatch(/^HTTP\/1\.1 429 /);
  // the held ones still work, and a closed one frees its place
  held[0]!.socket.write("GET /?ms=0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  await held[0]!.ended;
  expect(held[0]!.text()).toMatch(/^HTTP\/1\.1 200 /);
  await sleep(50);
  const again = await open(port);
  again.socket.write("GET /?ms=0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  await again.ended;
  expect(again.text()).toMatch(/^HTTP\/1\.1 200 /);
});

test("a trusted proxy's connections are not counted", async () => {
  const port = await start(LIMITS, (a) => a === "127.0.0.1");
  const all = await Promise.all(Array.from({ length: 6 }, () => open(port)));
  await sleep(200);
  for (const c of all) expect(c.text()).toBe("");
});
