import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger, startServer, type TestServer } from "#tests/integration/engine-core/helpers.ts";
import { isBlockedAddress } from "./address-guard.ts";
import { applyHostMap, parseHostMap } from "./host-map.ts";
import { createOutbound, type Outbound } from "./outbound-fetch.ts";

let server: TestServer;
let outbound: Outbound;
let flaky = 0;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/echo": {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify({ method: req.method, body, headers: req.headers, search: url.search }));
        });
        return;
      }
      case "/flaky":
        if (flaky++ % 3 < 2) {
          res.writeHead(503).end("busy");
          return;
        }
        res.end("finally");
        return;
      case "/reset":
        req.socket.destroy();
        return;
      case "/missing":
        res.writeHead(404).end("nope");
        return;
      case "/slow":
        setTimeout(() => res.end("late"), 1500);
        return;
      case "/big":
        res.setHeader("content-type", "application/json");
        res.end("x".repeat(5000));
        return;
      case "/big-chunked":
        res.setHeader("content-type", "application/json");
        res.write("[");
        res.end("1,".repeat(4000) + "1]");
        return;
      case "/gzip":
        res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/plain" });
        res.end(gzipSync(Buffer.from("hello compressed world")));
        return;
      case "/redirect":
        res.writeHead(302, { location: "/echo?from=redirect" }).end();
        return;
      case "/post-redirect":
        res.writeHead(307, { location: "/echo" }).end();
        return;
      case "/loop":
        res.writeHead(302, { location: "/loop" }).end();
        return;
      case "/local-redirect":
        res.writeHead(302, { location: `${server.origin}/echo` }).end();
        return;
      default:
        res.writeHead(404).end();
    }
  });
  outbound = createOutbound({
    hostMap: `api.example.com=${server.origin},*.cdn.example.net=${server.origin}`,
    allowPrivate: false,
    timeoutMs: 500,
    retryDelayMs: 5,
    logger: silentLogger,
  });
});

afterAll(async () => {
  outbound.close();
  await server.close();
});

describe("host map", () => {
  it("parses exact and wildcard hosts", () => {
    const map = parseHostMap("www.youtube.com=http://127.0.0.1:4000, *.googlevideo.com=http://127.0.0.1:4001/gv");
    expect(applyHostMap(map, new URL("https://www.youtube.com/youtubei/v1/player?x=1"))?.href).toBe(
      "http://127.0.0.1:4000/youtubei/v1/player?x=1",
    );
    expect(applyHostMap(map, new URL("https://rr1---sn-abc.googlevideo.com/videoplayback?id=1"))?.href).toBe(
      "http://127.0.0.1:4001/gv/videoplayback?id=1",
    );
    expect(applyHostMap(map, new URL("https://googlevideo.com/"))).toBeNull();
    expect(applyHostMap(map, new URL("https://example.com/"))).toBeNull();
    expect(() => parseHostMap("nonsense")).toThrow(/host=origin/);
    expect(parseHostMap(undefined)).toEqual([]);
  });

  it("sends mapped requests to the origin with the same path and query, naming the original host", async () => {
    const res = await outbound.fetch("https://api.example.com/echo?a=1&b=2");
    const json = (await res.json()) as { search: string; headers: Record<string, string> };
    expect(json.search).toBe("?a=1&b=2");
    expect(json.headers["x-forwarded-host"]).toBe("api.example.com");
    expect(res.url).toBe("https://api.example.com/echo?a=1&b=2");
  });
});

describe("address guard", () => {
  it.each(["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.0.1", "169.254.169.254", "100.100.0.1", "0.0.0.0", "224.1.1.1", "::1", "::", "::ffff:8.8.8.8", "fd12::1", "fe80::1%eth0", "ff02::1", "not-an-ip"])(
    "blocks %s",
    (ip) => expect(isBlockedAddress(ip)).toBe(true),
  );
  it.each(["8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "[2a00:1450:4001::200e]"])("allows %s", (ip) =>
    expect(isBlockedAddress(ip)).toBe(false),
  );
});

describe("outbound fetch", () => {
  it("accepts Request objects with bodies (as youtubei.js passes them)", async () => {
    const req = new Request("https://api.example.com/echo", { method: "POST", body: JSON.stringify({ q: 1 }), headers: { "x-test": "yes" } });
    const json = (await (await outbound.fetch(req)).json()) as { method: string; body: string; headers: Record<string, string> };
    expect(json).toMatchObject({ method: "POST", body: '{"q":1}' });
    expect(json.headers["x-test"]).toBe("yes");
  });

  it("retries 5xx with backoff and then succeeds", async () => {
    flaky = 0;
    const res = await outbound.fetch("https://api.example.com/flaky");
    expect(await res.text()).toBe("finally");
    expect(flaky).toBe(3);
  });

  it("returns the last 5xx when retries run out", async () => {
    flaky = 0;
    const res = await outbound.fetch("https://api.example.com/flaky", { retries: 1 });
    expect(res.status).toBe(503);
  });

  it("does not retry 4xx", async () => {
    const before = server.requests.filter((r) => r.url === "/missing").length;
    const res = await outbound.fetch("https://api.example.com/missing");
    expect(res.status).toBe(404);
    expect(server.requests.filter((r) => r.url === "/missing").length - before).toBe(1);
  });

  it("retries network errors, then reports upstream.fetch_failed", async () => {
    const before = server.requests.filter((r) => r.url === "/reset").length;
    await expect(outbound.fetch("https://api.example.com/reset", { retries: 2 })).rejects.toMatchObject({ code: "upstream.fetch_failed" });
    expect(server.requests.filter((r) => r.url === "/reset").length - before).toBe(3);
  });

  it("times out with upstream.timeout", async () => {
    await expect(outbound.fetch("https://api.example.com/slow", { retries: 0, timeoutMs: 200 })).rejects.toMatchObject({
      code: "upstream.timeout",
    });
  });

  it("caps metadata bodies with upstream.too_large", async () => {
    await expect(outbound.fetch("https://api.example.com/big", { maxBytes: 1000 })).rejects.toMatchObject({ code: "upstream.too_large" });
    await expect(outbound.fetch("https://api.example.com/big-chunked", { maxBytes: 1000 })).rejects.toMatchObject({
      code: "upstream.too_large",
    });
    expect((await (await outbound.fetch("https://api.example.com/big", { maxBytes: 10_000 })).text()).length).toBe(5000);
  });

  it("decodes gzip bodies", async () => {
    const res = await outbound.fetch("https://api.example.com/gzip");
    expect(await res.text()).toBe("hello compressed world");
    expect(res.headers.get("content-encoding")).toBeNull();
  });

  it("follows redirects and reports the final URL", async () => {
    const res = await outbound.fetch("https://api.example.com/redirect");
    expect(res.redirected).toBe(true);
    expect(res.url).toBe("https://api.example.com/echo?from=redirect");
    expect(((await res.json()) as { search: string }).search).toBe("?from=redirect");
  });

  it("keeps method and body on 307", async () => {
    const res = await outbound.fetch("https://x.cdn.example.net/post-redirect", { method: "POST", body: "payload" });
    expect(await res.json()).toMatchObject({ method: "POST", body: "payload" });
  });

  it("stops redirect loops", async () => {
    await expect(outbound.fetch("https://api.example.com/loop")).rejects.toMatchObject({ code: "upstream.fetch_failed" });
  });

  it("returns redirects untouched with redirect: manual", async () => {
    const res = await outbound.fetch("https://api.example.com/redirect", { redirect: "manual" });
    expect(res.status).toBe(302);
  });

  it("checks redirects from a mapped (trusted) host like any other link", async () => {
    await expect(outbound.fetch("https://api.example.com/local-redirect")).rejects.toMatchObject({ code: "link.blocked_address" });
  });

  it("trusts an operator-configured first hop but not its redirects", async () => {
    const res = await outbound.fetch(`${server.origin}/echo`, { trusted: true });
    expect(res.status).toBe(200);
    await expect(outbound.fetch(`${server.origin}/local-redirect`, { trusted: true })).rejects.toMatchObject({
      code: "link.blocked_address",
    });
    await expect(outbound.fetch(`${server.origin}/echo`)).rejects.toMatchObject({ code: "link.blocked_address" });
  });

  it("reaches private addresses when allowPrivate is set", async () => {
    const open = createOutbound({ allowPrivate: true, timeoutMs: 500, logger: silentLogger });
    const res = await open.fetch(`${server.origin}/echo`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    open.close();
  });

  it("lets a public address through the guard (resolver injected, no internet needed)", async () => {
    const publicOnly = createOutbound({
      allowPrivate: false,
      timeoutMs: 300,
      retries: 0,
      logger: silentLogger,
      // 192.0.2.x is reserved (blocked); the name resolves to a routable-looking public address instead
      resolve: async () => [{ address: "203.0.114.1", family: 4 }],
    });
    const err = await publicOnly.fetch("http://media.example.org/a.mp4").then(
      () => null,
      (e: { code?: string }) => e.code,
    );
    // Without internet the connection fails or times out, but the guard did not refuse it.
    expect(err === null || err === "upstream.fetch_failed" || err === "upstream.timeout").toBe(true);
    publicOnly.close();
  });

  it("aborts on signal", async () => {
    const controller = new AbortController();
    const pending = outbound.fetch("https://api.example.com/slow", { signal: controller.signal, timeoutMs: 5000 });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("exposes Node streams through open()", async () => {
    const res = await outbound.open("https://api.example.com/echo?x=1");
    const chunks: Buffer[] = [];
    for await (const c of res.body) chunks.push(c as Buffer);
    expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({ search: "?x=1" });
  });
});
