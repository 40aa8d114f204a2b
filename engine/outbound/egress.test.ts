import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConnectProxy, startSocksProxy, type FakeProxy } from "#tests/mocks/proxies.ts";
import { createConnectionPool } from "./connection-pool.ts";
import { createEgressPool, describeEgress, inIpv6Prefix, parseIpv6Cidr, parseOutboundProxies, randomIpv6In } from "./egress.ts";
import { createGuardedLookup, type ResolveHost } from "./guarded-lookup.ts";
import { createMediaExchange } from "./media-exchange.ts";
import { createOutbound } from "./outbound-fetch.ts";

const silent = pino({ level: "silent" });
const noDns: ResolveHost = async (host) => {
  throw Object.assign(new Error(`no DNS in this test (${host})`), { code: "ENOTFOUND" });
};

describe("OUTBOUND_PROXIES", () => {
  it("takes http, https and socks5 proxies separated by commas or spaces, with their credentials", () => {
    const proxies = parseOutboundProxies("http://proxy.example:3128, https://u%40x:p%3Ass@secure.example socks5://[2001:db8::1]");
    expect(proxies).toEqual([
      { protocol: "http:", host: "proxy.example", port: 3128 },
      { protocol: "https:", host: "secure.example", port: 443, username: "u@x", password: "p:ss" },
      { protocol: "socks5:", host: "2001:db8::1", port: 1080 },
    ]);
    expect(describeEgress(proxies, undefined)).toEqual(["proxy-1 (http://proxy.example:3128)", "proxy-2 (https://secure.example:443)", "proxy-3 (socks5://[2001:db8::1]:1080)"]);
  });

  it("refuses other schemes, paths and non-URLs without repeating a password", () => {
    expect(() => parseOutboundProxies("ftp://proxy.example")).toThrow(/entry 1 must start with http:\/\/, https:\/\/ or socks5:\/\//);
    expect(() => parseOutboundProxies("http://a.example:1 http://b.example/path")).toThrow(/entry 2 must be only scheme/);
    let message = "";
    try {
      parseOutboundProxies("http://user:hunter2@[bad");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/entry 1 is not a URL/);
    expect(message).not.toContain("hunter2");
  });
});

describe("OUTBOUND_IPV6_CIDR", () => {
  it("parses a prefix and ignores its host bits", () => {
    const prefix = parseIpv6Cidr("2001:db8:1234::ff/48")!;
    expect(prefix.bits).toBe(48);
    expect(inIpv6Prefix(prefix, "2001:db8:1234:ffff::1")).toBe(true);
    expect(inIpv6Prefix(prefix, "2001:db8:1235::1")).toBe(false);
    expect(parseIpv6Cidr(undefined)).toBeUndefined();
  });

  it("refuses what is not an IPv6 prefix", () => {
    for (const bad of ["2001:db8::", "10.0.0.0/8", "2001:db8::/129", "::ffff:1.2.3.4/120", "nonsense/64"]) {
      expect(() => parseIpv6Cidr(bad), bad).toThrow(/OUTBOUND_IPV6_CIDR/);
    }
  });

  it("each source address is a new random one inside the prefix", () => {
    const prefix = parseIpv6Cidr("2001:db8:abcd:12::/64")!;
    const addresses = Array.from({ length: 200 }, () => randomIpv6In(prefix));
    expect(new Set(addresses).size).toBe(200);
    for (const a of addresses) {
      expect(inIpv6Prefix(prefix, a), a).toBe(true);
      expect(a).not.toBe("2001:db8:abcd:12::");
    }
    // the host part is what varies: the 64 prefix bits never do
    expect(new Set(addresses.map((a) => a.split(":").slice(0, 4).join(":")))).toEqual(new Set(["2001:db8:abcd:12"]));
    expect(randomIpv6In(parseIpv6Cidr("::1/128")!)).toBe("::1");
  });
});

describe("the egress pool", () => {
  const twoProxies = parseOutboundProxies("http://127.0.0.1:1 socks5://127.0.0.1:2");

  it("is `direct` alone without configuration, and then dials nothing itself", () => {
    const pool = createEgressPool({ resolve: noDns });
    expect(pool.ids).toEqual(["direct"]);
    expect(pool.configured).toBe(false);
    expect(pool.choose("https://youtu.be/x")).toEqual({ id: "direct" });
    expect(pool.dialer({ id: "direct" })).toBeNull();
    expect(pool.other("direct")).toBeNull();
  });

  it("keeps a link on one egress, spreads links over the pool, and gives `ipv6` a fresh address each time", () => {
    const pool = createEgressPool({ proxies: twoProxies, ipv6: parseIpv6Cidr("2001:db8::/64"), resolve: noDns });
    expect(pool.ids).toEqual(["ipv6", "proxy-1", "proxy-2"]);
    const links = Array.from({ length: 30 }, (_, i) => `https://www.youtube.com/watch?v=video${i}`);
    for (const link of links) expect(pool.choose(link).id).toBe(pool.choose(link).id);
    expect(new Set(links.map((l) => pool.choose(l).id))).toEqual(new Set(pool.ids));
    const onIpv6 = links.find((l) => pool.choose(l).id === "ipv6")!;
    expect(pool.choose(onIpv6).localAddress).not.toBe(pool.choose(onIpv6).localAddress);
  });

  it("rests a sick egress for the rest time and uses the next one meanwhile", () => {
    let clock = 1_000_000;
    const warnings: unknown[] = [];
    const pool = createEgressPool({ proxies: twoProxies, resolve: noDns, now: () => clock, restMs: 60_000, logger: { warn: (o: unknown) => warnings.push(o), info: () => undefined } });
    const link = "https://www.youtube.com/watch?v=sick";
    const first = pool.choose(link).id;
    const second = pool.ids.find((id) => id !== first)!;
    pool.rest(first, "bot wall");
    pool.rest(first, "bot wall");
    expect(warnings).toHaveLength(1);
    expect(pool.resting(first)).toBe(true);
    expect(pool.choose(link).id).toBe(second);
    expect(pool.other(second)).toBeNull();
    expect(pool.other(first)?.id).toBe(second);
    // with both resting, the one that wakes first is used
    clock += 10_000;
    pool.rest(second, "refused");
    expect(pool.choose(link).id).toBe(first);
    clock += 50_001;
    expect(pool.resting(first)).toBe(false);
    expect(pool.choose(link).id).toBe(first);
  });

  it("pins one egress for a check, resting or not (`ipv6` with a fresh address); an id it does not have is null", () => {
    const pool = createEgressPool({ proxies: twoProxies, ipv6: parseIpv6Cidr("2001:db8::/64"), resolve: noDns });
    pool.rest("proxy-2", "bot wall");
    expect(pool.pinned("proxy-2")).toEqual({ id: "proxy-2" });
    const [a, b] = [pool.pinned("ipv6"), pool.pinned("ipv6")];
    expect(a?.id).toBe("ipv6");
    expect(a?.localAddress).toMatch(/^2001:db8::/);
    expect(a?.localAddress).not.toBe(b?.localAddress);
    expect(pool.pinned("direct")).toBeNull();
    expect(pool.pinned("proxy-3")).toBeNull();
    expect(createEgressPool({ resolve: noDns }).pinned("direct")).toEqual({ id: "direct" });
  });
});

/** A self-signed certificate for `san` (`DNS:name` or `IP:address`), and its key. */
function selfSigned(san: string): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), "egress-tls-"));
  const [keyFile, certFile] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=test", "-addext", `subjectAltName=${san}`, "-keyout", keyFile, "-out", certFile], { stdio: "ignore" });
  return { key: readFileSync(keyFile), cert: readFileSync(certFile) };
}

describe("connections through an egress", () => {
  let target: http.Server;
  let targetPort = 0;
  const seen: Array<{ path: string; from: string }> = [];
  const proxies: FakeProxy[] = [];
  beforeAll(async () => {
    target = http.createServer((req, res) => {
      seen.push({ path: req.url ?? "", from: req.socket.remoteAddress ?? "" });
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": "5" }).end("hello");
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    targetPort = (target.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const p of proxies) await p.close();
    target.closeAllConnections();
    await new Promise<void>((r) => target.close(() => r()));
  });

  /** a door whose only way out is `proxyUrl`; `public.test` is a public address the proxy routes to the local target */
  function doorThrough(proxyUrl: string, resolve: ResolveHost) {
    const egress = createEgressPool({ proxies: parseOutboundProxies(proxyUrl), resolve });
    return { egress, door: createOutbound({ egress, allowPrivate: false, timeoutMs: 5_000, logger: silent, retries: 0, resolve }) };
  }
  const resolvePublic: ResolveHost = async (host) => {
    if (host === "public.test") return [{ address: "93.184.216.34", family: 4 }];
    if (host === "internal.test") return [{ address: "10.1.2.3", family: 4 }];
    throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
  };
  const toTarget = (host: string, port: number) => (host === "93.184.216.34" ? { host: "127.0.0.1", port: targetPort } : { host, port });

  for (const kind of ["connect", "socks5"] as const) {
    it(`${kind}: a user's name is checked here and the proxy is asked for the checked address; media and API calls both go through it`, async () => {
      const auth = { username: "op", password: "s3cret" };
      const proxy = kind === "connect" ? await startConnectProxy({ auth, route: toTarget }) : await startSocksProxy({ auth, route: toTarget });
      proxies.push(proxy);
      const { egress, door } = doorThrough(proxy.url, resolvePublic);
      const ref = egress.choose("x");
      try {
        const media = await door.open(`http://public.test:${80}/media`, { egress: ref });
        expect(media.status).toBe(200);
        const chunks: Buffer[] = [];
        for await (const c of media.body) chunks.push(c as Buffer);
        expect(Buffer.concat(chunks).toString()).toBe("hello");
        const api = await door.fetch("http://public.test/api", { egress: ref, method: "POST", body: "{}" });
        expect(await api.text()).toBe("hello");
        expect(proxy.tunnels().map((t) => t.target)).toEqual(["93.184.216.34:80", "93.184.216.34:80"]);
        expect(proxy.tunnels().every((t) => t.down > 0)).toBe(true);
        expect(seen.slice(-2).map((s) => s.path)).toEqual(["/media", "/api"]);
      } finally {
        door.close();
      }
    });

    it(`${kind}: a private destination is refused before the proxy is asked for anything`, async () => {
      const proxy = kind === "connect" ? await startConnectProxy() : await startSocksProxy();
      proxies.push(proxy);
      const { egress, door } = doorThrough(proxy.url, resolvePublic);
      const ref = egress.choose("x");
      try {
        await expect(door.open("http://internal.test/secret", { egress: ref })).rejects.toMatchObject({ code: "link.blocked_address" });
        await expect(door.fetch("http://internal.test/secret", { egress: ref })).rejects.toMatchObject({ code: "link.blocked_address" });
        await expect(door.open("http://169.254.169.254/latest/meta-data", { egress: ref })).rejects.toMatchObject({ code: "link.blocked_address" });
        await expect(door.open(`http://127.0.0.1:${targetPort}/`, { egress: ref })).rejects.toMatchObject({ code: "link.blocked_address" });
        expect(proxy.tunnels()).toEqual([]);
      } finally {
        door.close();
      }
    });
  }

  it("a proxy that refuses our credentials fails the request and rests its egress", async () => {
    const proxy = await startConnectProxy({ auth: { username: "op", password: "right" } });
    proxies.push(proxy);
    const wrong = proxy.url.replace("://", "://op:wrong@");
    const { egress, door } = doorThrough(wrong, resolvePublic);
    try {
      await expect(door.open("http://public.test/x", { egress: { id: "proxy-1" } })).rejects.toMatchObject({ code: "upstream.fetch_failed" });
      expect(proxy.authFailures()).toBe(1);
      expect(egress.resting("proxy-1")).toBe(true);
    } finally {
      door.close();
    }
  });

  it("a mapped host goes to the proxy as its mapped origin (OUTBOUND_HOST_MAP first)", async () => {
    const proxy = await startSocksProxy();
    proxies.push(proxy);
    const egress = createEgressPool({ proxies: parseOutboundProxies(proxy.url), resolve: noDns });
    const door = createOutbound({ egress, hostMap: `www.youtube.com=http://127.0.0.1:${targetPort}`, allowPrivate: false, timeoutMs: 5_000, logger: silent, retries: 0, resolve: noDns });
    try {
      const res = await door.fetch("https://www.youtube.com/watch?v=x", { egress: { id: "proxy-1" } });
      expect(await res.text()).toBe("hello");
      expect(proxy.tunnels().map((t) => t.target)).toEqual([`127.0.0.1:${targetPort}`]);
    } finally {
      door.close();
    }
  });

  it("a destination the proxy cannot reach leaves the proxy in the pool; a proxy that cannot be reached rests", async () => {
    const proxy = await startConnectProxy({ route: () => ({ host: "127.0.0.1", port: 1 }) });
    proxies.push(proxy);
    const { egress, door } = doorThrough(`${proxy.url} http://127.0.0.1:1`, resolvePublic);
    try {
      await expect(door.open("http://public.test/x", { egress: { id: "proxy-1" } })).rejects.toMatchObject({ code: "upstream.fetch_failed" });
      expect(proxy.tunnels()).toHaveLength(1);
      expect(egress.resting("proxy-1")).toBe(false);
      await expect(door.open("http://public.test/x", { egress: { id: "proxy-2" } })).rejects.toMatchObject({ code: "upstream.fetch_failed" });
      expect(egress.resting("proxy-2")).toBe(true);
    } finally {
      door.close();
    }
  });

  it("an https:// proxy: TLS to the proxy, checked against its certificate, and the request inside", async () => {
    const { key, cert } = selfSigned("IP:127.0.0.1");
    const proxy = await startConnectProxy({ tls: { key, cert }, route: toTarget });
    proxies.push(proxy);
    const resolve = resolvePublic;
    const egress = createEgressPool({ proxies: parseOutboundProxies(proxy.url).map((p) => ({ ...p, ca: cert })), resolve });
    const door = createOutbound({ egress, allowPrivate: false, timeoutMs: 5_000, logger: silent, retries: 0, resolve });
    const untrusted = createEgressPool({ proxies: parseOutboundProxies(proxy.url), resolve });
    const strictDoor = createOutbound({ egress: untrusted, allowPrivate: false, timeoutMs: 5_000, logger: silent, retries: 0, resolve });
    try {
      expect(proxy.url).toMatch(/^https:/);
      expect(await (await door.fetch("http://public.test/over-tls", { egress: { id: "proxy-1" } })).text()).toBe("hello");
      expect(proxy.tunnels().map((t) => t.target)).toEqual(["93.184.216.34:80"]);
      // a proxy whose certificate is not trusted is not used
      await expect(strictDoor.open("http://public.test/x", { egress: { id: "proxy-1" } })).rejects.toMatchObject({ code: "upstream.fetch_failed" });
      expect(proxy.tunnels()).toHaveLength(1);
    } finally {
      door.close();
      strictDoor.close();
    }
  });

  it("TLS to the destination runs inside the tunnel, its certificate checked for the name", async () => {
    const { key, cert: ca } = selfSigned("DNS:public.test");
    const tlsServer = https.createServer({ key, cert: ca }, (_req, res) => res.writeHead(200, { "content-length": "6" }).end("secret"));
    await new Promise<void>((r) => tlsServer.listen(0, "127.0.0.1", r));
    const port = (tlsServer.address() as AddressInfo).port;
    const proxy = await startConnectProxy({ route: (host) => (host === "93.184.216.34" ? { host: "127.0.0.1", port } : { host, port }) });
    proxies.push(proxy);
    const egress = createEgressPool({ proxies: parseOutboundProxies(proxy.url), resolve: resolvePublic });
    const pool = createConnectionPool({ guardedLookup: createGuardedLookup(resolvePublic), ca });
    const exchange = createMediaExchange({ pool, userAgent: "t" });
    const via = egress.dialer({ id: "proxy-1" });
    try {
      const req = { method: "GET" as const, headers: new Headers(), guarded: true, originalHost: null, via };
      const first = await exchange(new URL("https://public.test/a"), req, 5_000, undefined);
      let text = "";
      for await (const c of first) text += (c as Buffer).toString();
      expect(text).toBe("secret");
      // the pooled connection carries the next request: one tunnel for both
      const second = await exchange(new URL("https://public.test/b"), req, 5_000, undefined);
      for await (const c of second) void c;
      expect(proxy.tunnels().map((t) => t.target)).toEqual(["93.184.216.34:443"]);
    } finally {
      pool.close();
      tlsServer.closeAllConnections();
      tlsServer.close();
    }
  });

  it("ipv6: connects from the source address it was given (bound inside ::1/128)", async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(200, { "content-length": String(req.socket.remoteAddress!.length) }).end(req.socket.remoteAddress);
    });
    await new Promise<void>((r) => server.listen(0, "::1", r));
    const port = (server.address() as AddressInfo).port;
    const egress = createEgressPool({ ipv6: parseIpv6Cidr("::1/128"), resolve: noDns });
    const door = createOutbound({ egress, hostMap: `media.example=http://[::1]:${port}`, allowPrivate: false, timeoutMs: 5_000, logger: silent, retries: 0, resolve: noDns });
    try {
      const ref = egress.choose("x");
      expect(ref).toEqual({ id: "ipv6", localAddress: "::1" });
      const res = await door.open("https://media.example/file", { egress: ref });
      let from = "";
      for await (const c of res.body) from += (c as Buffer).toString();
      expect(from).toBe("::1");
    } finally {
      door.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
