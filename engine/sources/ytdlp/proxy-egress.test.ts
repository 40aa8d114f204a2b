/**
 * yt-dlp's requests leave by the egress of the resolve they serve (issue 32 §3): the forwarding
 * proxy decides each destination as before (host map, SSRF guard) and then connects through the
 * run's egress, here a fake operator proxy that counts what went through it.
 */
import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startConnectProxy, startSocksProxy, type FakeProxy } from "#tests/mocks/proxies.ts";
import { createEgressPool, parseOutboundProxies } from "../../outbound/egress.ts";
import { startForwardingProxy, type ForwardingProxy, type ProxyRun } from "./proxy.ts";

const logger = pino({ level: "silent" });
let target: http.Server;
let raw: net.Server;
let forwarding: ForwardingProxy;
let connectProxy: FakeProxy;
let socksProxy: FakeProxy;
const seenFrom: string[] = [];

beforeAll(async () => {
  target = http.createServer((req, res) => {
    seenFrom.push(req.socket.remoteAddress ?? "");
    res.writeHead(200, { "content-type": "text/plain" }).end("metadata");
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  raw = net.createServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", (first: Buffer) => socket.end(`tunnelled ${first.length} bytes`));
  });
  await new Promise<void>((r) => raw.listen(0, "127.0.0.1", r));
  const port = (s: net.Server) => (s.address() as AddressInfo).port;
  forwarding = await startForwardingProxy({
    hostMap: `www.platform.test=http://127.0.0.1:${port(target)},cdn.platform.test=http://127.0.0.1:${port(raw)}`,
    allowPrivate: false,
    logger,
    resolve: async () => [{ address: "10.0.0.9", family: 4 }],
  });
  connectProxy = await startConnectProxy({ localAddress: "127.0.0.2" });
  socksProxy = await startSocksProxy({ localAddress: "127.0.0.3", auth: { username: "u", password: "p" } });
});
afterAll(async () => {
  await forwarding?.close();
  await connectProxy?.close();
  await socksProxy?.close();
  await new Promise<void>((r) => target.close(() => r()));
  await new Promise<void>((r) => raw.close(() => r()));
});

const authOf = (run: ProxyRun) => {
  const u = new URL(run.url);
  return `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`;
};

async function get(run: ProxyRun, url: string): Promise<{ status: number; body: string }> {
  const req = http.request({ host: "127.0.0.1", port: forwarding.port, path: url, agent: false, headers: { "proxy-authorization": authOf(run) } });
  req.end();
  const [res] = (await once(req, "response")) as [http.IncomingMessage];
  let body = "";
  for await (const chunk of res) body += String(chunk);
  return { status: res.statusCode ?? 0, body };
}

/** CONNECT through the forwarding proxy and send a TLS-looking first record; the answer the destination gave */
function tunnel(run: ProxyRun, authority: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: forwarding.port, method: "CONNECT", path: authority, agent: false, headers: { "proxy-authorization": authOf(run) } });
    req.on("connect", (res, socket) => {
      if (res.statusCode !== 200) return resolve(`status ${res.statusCode}`);
      let answer = "";
      socket.on("data", (c: Buffer) => (answer += c.toString()));
      socket.on("close", () => resolve(answer));
      socket.write(Buffer.from([0x16, 3, 1, 0, 1, 0]));
    });
    req.on("error", reject);
    req.end();
  });
}

it("a run on a proxy egress sends its plain requests and its tunnels through that proxy", async () => {
  const pool = createEgressPool({ proxies: parseOutboundProxies(`${connectProxy.url} ${socksProxy.url}`), resolve: async () => [] });
  for (const [id, proxy] of [["proxy-1", connectProxy], ["proxy-2", socksProxy]] as const) {
    const run = forwarding.startRun(pool.dialer({ id }));
    try {
      const before = proxy.tunnels().length;
      expect(await get(run, "http://www.platform.test/watch?v=1")).toEqual({ status: 200, body: "metadata" });
      expect(seenFrom.at(-1)).toBe(proxy.localAddress);
      expect(await tunnel(run, "cdn.platform.test:443")).toBe("tunnelled 6 bytes");
      expect(proxy.tunnels().length - before).toBe(2);
    } finally {
      run.end();
    }
  }
});

it("a run on a proxy egress is still held to the guard: a private destination never reaches the proxy", async () => {
  const pool = createEgressPool({ proxies: parseOutboundProxies(connectProxy.url), resolve: async () => [] });
  const run = forwarding.startRun(pool.dialer({ id: "proxy-1" }));
  try {
    const before = connectProxy.tunnels().length;
    expect((await get(run, "http://internal.platform.test/")).status).toBe(403);
    expect(await tunnel(run, "169.254.169.254:443")).toBe("status 403");
    expect(connectProxy.tunnels().length).toBe(before);
    expect(run.refused.length).toBe(2);
  } finally {
    run.end();
  }
});

it("a run without an egress connects from this host as before", async () => {
  const run = forwarding.startRun();
  try {
    expect((await get(run, "http://www.platform.test/")).status).toBe(200);
    expect(seenFrom.at(-1)).toBe("127.0.0.1");
  } finally {
    run.end();
  }
});
