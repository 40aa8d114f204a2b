import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startForwardingProxy, type ForwardingProxy, type ProxyRun } from "./proxy.ts";

const logger = pino({ level: "silent" });
let target: http.Server;
let targetPort = 0;
const seen: Array<{ url: string; host: string | undefined; forwarded: string | undefined; auth: string | undefined }> = [];
let proxy: ForwardingProxy;

const DNS: Record<string, string[]> = {
  "evil.example.test": ["10.0.0.7"],
  // one public and one private answer: refused, whichever the socket would have picked
  "rebind.example.test": ["93.184.216.34", "127.0.0.1"],
  "metadata.example.test": ["169.254.169.254"],
};

beforeAll(async () => {
  target = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", host: req.headers.host, forwarded: req.headers["x-forwarded-host"] as string | undefined, auth: req.headers["proxy-authorization"] as string | undefined });
    res.writeHead(200, { "content-type": "text/plain" }).end(`hello from ${req.url}`);
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetPort = (target.address() as AddressInfo).port;
  proxy = await startForwardingProxy({
    hostMap: `mapped.example.test=http://127.0.0.1:${targetPort}`,
    allowPrivate: false,
    logger,
    resolve: async (host) => (DNS[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
  });
});
afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((r) => target.close(() => r()));
});

function authOf(run: ProxyRun): string {
  const u = new URL(run.url);
  return `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`;
}

function viaProxy(url: string, auth?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: proxy.port, method: "GET", path: url, agent: false, headers: auth ? { "proxy-authorization": auth } : {} }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** CONNECT, then (when it opens) a plain HTTP request through the tunnel. */
function tunnel(authority: string, auth?: string): Promise<{ status: number; body?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: proxy.port, method: "CONNECT", path: authority, agent: false, headers: auth ? { "proxy-authorization": auth } : {} });
    req.on("connect", (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0 });
        return;
      }
      let body = "";
      socket.setEncoding("utf8");
      socket.on("data", (c: string) => (body += c));
      socket.on("end", () => resolve({ status: 200, body }));
      socket.write(`GET /through-tunnel HTTP/1.1\r\nhost: ${authority}\r\nconnection: close\r\n\r\n`);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the forwarding proxy yt-dlp talks through", () => {
  it("forwards plain HTTP to a mapped host's origin, without our proxy credentials", async () => {
    const run = proxy.startRun();
    const res = await viaProxy("http://mapped.example.test/page?x=1", authOf(run));
    expect(res).toEqual({ status: 200, body: "hello from /page?x=1" });
    expect(seen.at(-1)).toMatchObject({ url: "/page?x=1", forwarded: "mapped.example.test", auth: undefined });
    expect(run.refused).toEqual([]);
    run.end();
  });

  it.each([
    `http://127.0.0.1:${"PORT"}/secret`,
    "http://[::1]/secret",
    "http://169.254.169.254/latest/meta-data/",
    "http://evil.example.test/secret",
    "http://rebind.example.test/secret",
    "http://metadata.example.test/latest/meta-data/",
  ])("refuses %s after DNS and records why", async (raw) => {
    const url = raw.replace("PORT", String(targetPort));
    const before = seen.length;
    const run = proxy.startRun();
    const res = await viaProxy(url, authOf(run));
    expect(res.status).toBe(403);
    expect(run.refused).toHaveLength(1);
    expect(seen.length).toBe(before);
    run.end();
  });

  it.each([`127.0.0.1:PORT`, "[::1]:443", "169.254.169.254:80", "evil.example.test:443", "rebind.example.test:443", "[::ffff:127.0.0.1]:443", "0.0.0.0:443"])(
    "refuses a CONNECT tunnel to %s",
    async (raw) => {
      const run = proxy.startRun();
      const res = await tunnel(raw.replace("PORT", String(targetPort)), authOf(run));
      expect(res.status).toBe(403);
      expect(run.refused).toHaveLength(1);
      run.end();
    },
  );

  it("opens a CONNECT tunnel to a mapped host's origin", async () => {
    const run = proxy.startRun();
    const res = await tunnel("mapped.example.test:443", authOf(run));
    expect(res.status).toBe(200);
    expect(res.body).toContain("hello from /through-tunnel");
    run.end();
  });

  it("serves only the runs this process started, and not after they end", async () => {
    expect((await viaProxy("http://mapped.example.test/x")).status).toBe(407);
    expect((await viaProxy("http://mapped.example.test/x", `Basic ${Buffer.from("guess:x").toString("base64")}`)).status).toBe(407);
    expect((await tunnel("mapped.example.test:443")).status).toBe(407);
    const run = proxy.startRun();
    const auth = authOf(run);
    run.end();
    expect((await viaProxy("http://mapped.example.test/x", auth)).status).toBe(407);
  });

  it("refuses absolute-form requests that are not plain HTTP", async () => {
    const run = proxy.startRun();
    expect((await viaProxy("https://mapped.example.test/x", authOf(run))).status).toBe(400);
    expect((await viaProxy("ftp://mapped.example.test/x", authOf(run))).status).toBe(400);
    run.end();
  });
});
