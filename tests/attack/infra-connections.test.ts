import { connect, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isProxyNetworkAddress } from "#server/trust-proxy.ts";
import { rawRequest } from "./support/raw-http.ts";
import { startServer, type AttackServer } from "./support/server.ts";

/**
 * Issue 27 §18 and §12, from outside against the production server, deployed as docs/deploy.md
 * says (TRUST_PROXY=1) but with its port reached directly:
 * - X-Forwarded-For is believed from a proxy on loopback, never from a client on another
 *   address, so a spoofed header does not reset the per-IP limits;
 * - a trickling body is cut within seconds, not 330 s;
 * - one address holds at most MAX_CONNECTIONS_PER_IP connections, a trusted proxy any number.
 */
const POST_LIMIT = 3;
const CONNECTION_CAP = 8;

/** A local address outside loopback and the private networks: a client "from the internet". */
const publicAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal && !isProxyNetworkAddress(a.address))?.address;

let server: AttackServer;

beforeAll(async () => {
  server = await startServer({
    preferredPort: 3334,
    env: { HOST: "0.0.0.0", TRUST_PROXY: "1", POST_RATE_LIMIT_PER_MINUTE: String(POST_LIMIT), MAX_CONNECTIONS_PER_IP: String(CONNECTION_CAP) },
  });
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

/** POST /api/v1/resolve from `address`, claiming to be `forwarded`; the status. */
async function resolveFrom(address: string, forwarded: string): Promise<number> {
  const res = await fetch(`http://${address}:${server.port}/api/v1/resolve`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": forwarded },
    body: JSON.stringify({ url: "not a link" }),
  });
  await res.arrayBuffer();
  return res.status;
}

function openSocket(address: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, address);
    let text = "";
    socket.on("data", (c: Buffer) => (text += c.toString("latin1")));
    const closed = new Promise<void>((r) => socket.on("close", () => r()));
    socket.once("connect", () => resolve({ socket, received: () => text, closed }));
    socket.once("error", reject);
  });
}

describe("X-Forwarded-For on an instance reached directly", () => {
  it("from the proxy (loopback) each forwarded client has its own limit", async () => {
    const statuses = [];
    for (let i = 0; i < POST_LIMIT + 3; i++) statuses.push(await resolveFrom("127.0.0.1", `198.51.100.${i + 1}`));
    expect(statuses.filter((s) => s === 429)).toEqual([]);
  });

  it.skipIf(!publicAddress)("from any other address a spoofed header is ignored: the limit holds", async () => {
    const statuses = [];
    for (let i = 0; i < POST_LIMIT + 3; i++) statuses.push(await resolveFrom(publicAddress!, `203.0.113.${i + 1}`));
    expect(statuses.slice(0, POST_LIMIT).every((s) => s !== 429), statuses.join(",")).toBe(true);
    expect(statuses.slice(POST_LIMIT), statuses.join(",")).toEqual([429, 429, 429]);
  });
});

describe("slow requests and many connections", () => {
  it("a body sent a byte at a time is answered 408 within seconds", async () => {
    const c = await openSocket("127.0.0.1");
    c.socket.write(`POST /contact-us HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n`);
    const started = Date.now();
    const drip = setInterval(() => c.socket.writable && c.socket.write("a"), 500);
    await c.closed;
    clearInterval(drip);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it.skipIf(!publicAddress)("one client address holds at most MAX_CONNECTIONS_PER_IP connections", async () => {
    const held = await Promise.all(Array.from({ length: CONNECTION_CAP }, () => openSocket(publicAddress!)));
    const extra = await openSocket(publicAddress!);
    await extra.closed;
    expect(extra.received()).toMatch(/^HTTP\/1\.1 429 /);
    // the held ones are served
    const first = held[0]!;
    first.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${publicAddress}:${server.port}\r\nConnection: close\r\n\r\n`);
    await first.closed;
    expect(first.received()).toMatch(/^HTTP\/1\.1 200 /);
    for (const h of held) h.socket.destroy();
  });

  it("a trusted proxy's connections are not capped", async () => {
    const held = await Promise.all(Array.from({ length: CONNECTION_CAP * 2 }, () => openSocket("127.0.0.1")));
    const res = await rawRequest({ port: server.port, method: "GET", target: "/healthz" });
    expect(res.kind === "response" && res.status).toBe(200);
    for (const h of held) expect(h.received()).toBe("");
    for (const h of held) h.socket.destroy();
  });
});
