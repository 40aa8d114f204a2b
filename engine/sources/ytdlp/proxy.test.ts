import http from "node:http";
import net, { type AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startForwardingProxy, type ForwardingProxy, type ProxyRun } from "./proxy.ts";

const logger = pino({ level: "silent" });
let target: http.Server;
let targetPort = 0;
const seen: Array<{ url: string; host: string | undefined; forwarded: string | undefined; auth: string | undefined }> = [];
let proxy: ForwardingProxy;
/** a raw TCP service behind a mapped host: what reached it through a tunnel */
let raw: net.Server;
const rawReceived: Buffer[] = [];

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
  raw = net.createServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", (first: Buffer) => {
      rawReceived.push(first);
      socket.end(`tunnelled ${first.length} bytes`);
    });
  });
  await new Promise<void>((r) => raw.listen(0, "127.0.0.1", r));
  proxy = await startForwardingProxy({
    hostMap: `mapped.example.test=http://127.0.0.1:${targetPort},raw.example.test=http://127.0.0.1:${(raw.address() as AddressInfo).port}`,
    allowPrivate: false,
    logger,
    resolve: async (host) => (DNS[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
  });
});
afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((r) => target.close(() => r()));
  await new Promise<void>((r) => raw.close(() => r()));
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

/** A TLS record header opening a handshake, as a ClientHello starts (the rest does not matter here). */
const TLS_START = Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00]);

/** CONNECT, then (when it opens) `first` through the tunnel (by default a TLS handshake's first bytes). */
function tunnel(authority: string, auth?: string, first: Buffer | string = TLS_START): Promise<{ status: number; body?: string }> {
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
      socket.on("error", () => undefined);
      socket.on("close", () => resolve({ status: 200, body }));
      socket.write(first);
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
    const res = await tunnel("raw.example.test:443", authOf(run));
    expect(res.status).toBe(200);
    expect(res.body).toBe(`tunnelled ${TLS_START.length} bytes`);
    expect(rawReceived.at(-1)).toEqual(TLS_START);
    run.end();
  });

  // issue 27, finding 2: a tunnel carries https only, not FTP or any other protocol
  it.each([
    ["FTP", "USER anonymous\r\n"],
    ["plain HTTP", "GET /secret HTTP/1.1\r\nhost: raw.example.test\r\n\r\n"],
  ])("closes a tunnel whose first bytes are %s, before they reach the service", async (_name, first) => {
    const before = rawReceived.length;
    const run = proxy.startRun();
    const res = await tunnel("raw.example.test:21", authOf(run), first);
    expect(res).toEqual({ status: 200, body: "" });
    expect(rawReceived.length).toBe(before);
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
