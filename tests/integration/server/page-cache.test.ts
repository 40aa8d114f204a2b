import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { resourceRoutesBuild, startHost } from "./host.ts";

/**
 * Pages served as production serves them: the policy names each page's inline scripts by hash,
 * anonymous pages get an ETag, a shared-cache lifetime and an in-process cache, and anything
 * per-visitor (a session or visitor cookie, a response setting a cookie, a page with its own
 * Cache-Control) is neither cached nor served from the cache.
 */

const INLINE = "window.__page = 1;";
const SESSION = "vidfetch.session_token=abc.def";

/** A build whose routes answer HTML, counting how often each was rendered. */
function pagesBuild() {
  const renders: Record<string, number> = {};
  let version = 1;
  const html = (name: string) => {
    renders[name] = (renders[name] ?? 0) + 1;
    return `<!doctype html><html><head><script type="application/ld+json">{"a":1}</script><script src="/assets/x.js"></script></head>` +
      `<body><h1>${name} v${version}</h1><script>${INLINE}</script><script type="module">import("/assets/y.js");</script></body></html>`;
  };
  const page = (name: string, headers: Record<string, string> = {}, status = 200) => async () =>
    new Response(html(name), { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });
  const build = resourceRoutesBuild({
    home: { path: "home", module: { loader: page("home"), action: async () => ((version += 1), new Response("ok")) } },
    blog: { path: "blog/:slug", module: { loader: page("article") } },
    cookie: { path: "sets-cookie", module: { loader: page("cookie", { "set-cookie": "seen=1; Path=/" }) } },
    own: { path: "dashboard", module: { loader: page("dashboard", { "cache-control": "private, no-store" }) } },
    missing: { path: "gone", module: { loader: page("gone", {}, 404) } },
  });
  return { build, renders };
}

async function start(env: NodeJS.ProcessEnv = {}) {
  const { build, renders } = pagesBuild();
  const { base } = await startHost({ build, production: true, env: { POST_RATE_LIMIT_PER_MINUTE: "1000", ...env } });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers });
  return { base, get, renders };
}

const sha256 = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;

describe("page policy", () => {
  test("the CSP allows the page's own inline scripts by hash, no nonce, and is the same on every request", async () => {
    const { get } = await start();
    const res = await get("/home");
    const csp = res.headers.get("content-security-policy") ?? "";
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    expect(scriptSrc).toContain(sha256(INLINE));
    expect(scriptSrc).toContain(sha256('import("/assets/y.js");'));
    // the JSON-LD data block is not a script and an external one is covered by 'self'
    expect(scriptSrc).not.toContain(sha256('{"a":1}'));
    expect(scriptSrc.match(/'sha256-/g)).toHaveLength(2);
    expect(csp).not.toContain("nonce-");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).toContain("'wasm-unsafe-eval'");
    for (const d of ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'"]) expect(csp).toContain(d);
    // a cache miss and a cache hit carry the same policy
    expect((await get("/home")).headers.get("content-security-policy")).toBe(csp);
    // a response that is not a page keeps the policy without any inline script
    const health = (await get("/healthz")).headers.get("content-security-policy") ?? "";
    expect(health).not.toContain("'sha256-");
    expect(health).toContain("object-src 'none'");
  });
});

describe("anonymous pages", () => {
  test("are public with an ETag, rendered once and then answered from memory", async () => {
    const { get, renders } = await start();
    const first = await get("/home");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=600");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    const body = await first.text();
    expect(body).toContain("<h1>home v1</h1>");

    const second = await get("/home");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("etag")).toBe(etag);
    expect(second.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
    expect(second.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(second.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await second.text()).toBe(body);
    expect(renders.home).toBe(1);

    // another query is another page
    expect((await get("/home?x=1")).headers.get("x-page-cache")).toBe("miss");
    expect(renders.home).toBe(2);
  });

  test("If-None-Match answers 304 without a body, from memory and on a fresh render alike", async () => {
    const { get, renders } = await start();
    const etag = (await get("/home")).headers.get("etag")!;
    const hit = await get("/home", { "if-none-match": etag });
    expect(hit.status).toBe(304);
    expect(hit.headers.get("etag")).toBe(etag);
    expect(await hit.text()).toBe("");
    expect((await get("/home", { "if-none-match": 'W/"something-else"' })).status).toBe(200);

    // with the cache off, the render still answers 304 to a matching tag
    const off = await start({ PAGE_CACHE_MB: "0" });
    const tag = (await off.get("/home")).headers.get("etag")!;
    const again = await off.get("/home", { "if-none-match": tag });
    expect(again.status).toBe(304);
    expect(again.headers.get("x-page-cache")).toBeNull();
    expect(off.renders.home).toBe(2);
    expect(renders.home).toBe(1);
  });

  test("a cached page is sent gzipped to a client that takes gzip", async () => {
    const { base, get } = await start();
    const plain = await (await get("/home")).text();
    const { request } = await import("node:http");
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      request(`${base}/home`, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      }).on("error", reject).end();
    });
    expect(raw.encoding).toBe("gzip");
    const { gunzipSync } = await import("node:zlib");
    expect(gunzipSync(raw.body).toString()).toBe(plain);
  });

  test("a form post to a page drops its cached copy, so the next view shows the change", async () => {
    const { base, get, renders } = await start();
    await get("/home");
    await get("/home?ref=x");
    expect((await get("/home")).headers.get("x-page-cache")).toBe("hit");
    const post = await fetch(`${base}/home`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: base }, body: "a=1" });
    expect(post.status).toBe(200);
    const after = await get("/home");
    expect(after.headers.get("x-page-cache")).toBe("miss");
    expect(await after.text()).toContain("<h1>home v2</h1>");
    expect((await get("/home?ref=x")).headers.get("x-page-cache")).toBe("miss");
    expect(renders.home).toBe(4);
  });
});

describe("per-visitor pages are never cached", () => {
  test("a session cookie: private, no-store, rendered every time, never served the anonymous copy", async () => {
    const { get, renders } = await start();
    await get("/home");
    for (const cookie of [SESSION, `theme=dark; __Secure-${SESSION}`]) {
      const res = await get("/home", { cookie });
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("etag")).toBeNull();
      expect(res.headers.get("x-page-cache")).toBeNull();
    }
    expect(renders.home).toBe(3);
    // an unrelated cookie does not make a page private
    expect((await get("/home", { cookie: "theme=dark; vidfetch=1" })).headers.get("x-page-cache")).toBe("hit");
  });

  test("the blog visitor cookie makes an article private, and only an article", async () => {
    const { get, renders } = await start();
    const cookie = "vf_visitor=11111111-1111-1111-1111-111111111111.sig";
    expect((await get("/blog/a")).headers.get("x-page-cache")).toBe("miss");
    const mine = await get("/blog/a", { cookie });
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(mine.headers.get("x-page-cache")).toBeNull();
    expect(renders.article).toBe(2);
    await get("/home");
    expect((await get("/home", { cookie })).headers.get("x-page-cache")).toBe("hit");
  });

  test("a response that sets a cookie is private and stays out of the cache", async () => {
    const { get, renders } = await start();
    for (let i = 0; i < 2; i++) {
      const res = await get("/sets-cookie");
      expect(res.headers.get("set-cookie")).toBe("seen=1; Path=/");
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("etag")).toBeNull();
    }
    expect(renders.cookie).toBe(2);
  });

  test("a page that chose its own Cache-Control keeps it and is not cached; neither is a 404", async () => {
    const { get, renders } = await start();
    for (let i = 0; i < 2; i++) {
      const res = await get("/dashboard");
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("etag")).toBeNull();
      const gone = await get("/gone");
      expect(gone.status).toBe(404);
      expect(gone.headers.get("cache-control")).toBe("private, no-store");
    }
    expect(renders.dashboard).toBe(2);
    expect(renders.gone).toBe(2);
  });
});

describe("cache hits, answered before Express runs", () => {
  const comparable = (res: Response) => {
    const out: Record<string, string> = {};
    // a hit is gzipped from its stored copy; a render this small is sent as it is
    const transport = ["date", "x-page-cache", "keep-alive", "connection", "content-encoding", "content-length"];
    for (const [k, v] of res.headers) if (!transport.includes(k)) out[k] = v;
    return out;
  };

  test("carry every header the render that stored them sent, security headers included, for GET and HEAD", async () => {
    const { base, get, renders } = await start();
    const miss = await get("/home");
    const hit = await get("/home");
    expect([miss.headers.get("x-page-cache"), hit.headers.get("x-page-cache")]).toEqual(["miss", "hit"]);
    expect(comparable(hit)).toEqual(comparable(miss));
    for (const h of ["x-content-type-options", "referrer-policy", "x-frame-options", "cross-origin-opener-policy", "permissions-policy"]) {
      expect(hit.headers.get(h)).toBeTruthy();
    }
    expect(await hit.text()).toBe(await miss.text());
    const head = await fetch(`${base}/home`, { method: "HEAD" });
    expect(head.headers.get("x-page-cache")).toBe("hit");
    expect(await head.text()).toBe("");
    expect(renders.home).toBe(1);
  });

  test("a forwarded host and protocol count only from a trusted proxy, as they do for the render", async () => {
    const untrusted = await start();
    await untrusted.get("/home", { "x-forwarded-host": "a.example" });
    // not trusted: the forwarded host is ignored, so this is the same page
    expect((await untrusted.get("/home", { "x-forwarded-host": "b.example" })).headers.get("x-page-cache")).toBe("hit");
    expect(untrusted.renders.home).toBe(1);

    const trusted = await start({ TRUST_PROXY: "loopback" });
    await trusted.get("/home", { "x-forwarded-host": "a.example" });
    expect((await trusted.get("/home", { "x-forwarded-host": "a.example" })).headers.get("x-page-cache")).toBe("hit");
    // another site name behind the same proxy is another page (its links and canonical may differ)
    expect((await trusted.get("/home", { "x-forwarded-host": "b.example" })).headers.get("x-page-cache")).toBe("miss");
    // a list of forwarded hosts goes through the host guard, every time
    expect((await trusted.get("/home", { "x-forwarded-host": "a.example, b.example" })).headers.get("x-page-cache")).not.toBe("hit");
    const https = { "x-forwarded-host": "a.example", "x-forwarded-proto": "https" };
    const httpsMiss = await trusted.get("/home", https);
    const httpsHit = await trusted.get("/home", https);
    expect([httpsMiss.headers.get("x-page-cache"), httpsHit.headers.get("x-page-cache")]).toEqual(["miss", "hit"]);
    expect(httpsHit.headers.get("strict-transport-security")).toBe(httpsMiss.headers.get("strict-transport-security"));
    expect(httpsHit.headers.get("strict-transport-security")).toContain("max-age=");
    expect((await trusted.get("/home", { "x-forwarded-host": "a.example" })).headers.get("strict-transport-security")).toBeNull();
  });

  test("a request in absolute form, or with a malformed URL, is left to the guards", async () => {
    const { base, get } = await start();
    await get("/home");
    const { request } = await import("node:http");
    const url = new URL(base);
    const raw = (target: string) =>
      new Promise<{ status: number; cache: string | undefined }>((resolve, reject) => {
        request({ host: url.hostname, port: url.port, path: target, headers: { host: url.host } }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, cache: res.headers["x-page-cache"] as string | undefined });
        }).on("error", reject).end();
      });
    // absolute form is rewritten by the guard and then rendered or served by the stack as before
    expect((await raw(`${base}/home`)).status).toBe(200);
    expect((await raw("/home%00")).status).toBe(400);
    expect((await raw("/home")).cache).toBe("hit");
  });
});
