import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { Readable, Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { signDownload } from "#engine/serve/signed-links.ts";
import { DISCARD_LIMITS } from "#server/http-errors.ts";
import { echoBuild, startHost } from "./host.ts";

/**
 * The host's checks before any route runs (issue 8 findings 1, 2, 3, 6, 7, 9): each hostile or
 * malformed request gets a 4xx with a clear message, never a 500 and never an unbounded read.
 */

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

/** Send raw bytes (any Host header, any method) and read the status line and body. */
function raw(port: number, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (d) => (data += d));
    socket.on("error", reject);
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf("\r\n\r\n") + 4) });
    });
  });
}

/** A lazily produced upload of `total` bytes, counting what the server made us produce. */
function lazyBody(total: number, chunk = 64 * 1024) {
  let produced = 0;
  const stream = new Readable({
    read() {
      if (produced >= total) return this.push(null);
      const n = Math.min(chunk, total - produced);
      produced += n;
      this.push(Buffer.alloc(n, "a"));
    },
  });
  return { stream, produced: () => produced };
}

/** POST a chunked body (no Content-Length) and resolve with the status as soon as it arrives. */
function chunkedPost(port: number, path: string, contentType: string, body: Readable, atAnswer: () => number = () => 0): Promise<{ status: number; text: string; atAnswer: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "POST", headers: { "content-type": contentType, "transfer-encoding": "chunked" } }, (res) => {
      const at = atAnswer();
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text, atAnswer: at }));
    });
    req.on("error", (err) => ((err as NodeJS.ErrnoException).code === "EPIPE" || (err as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(err)));
    body.pipe(req);
  });
}

describe("request bodies of page routes", () => {
  test("a 50 MB form with Content-Length is refused with 413 before it is read", async () => {
    const { port } = await startHost({ build: echoBuild() });
    const { stream, produced } = lazyBody(50 * 1024 * 1024);
    const answer = await new Promise<{ status: number; atAnswer: number }>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, path: "/contact-us", method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(50 * 1024 * 1024) } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, atAnswer: produced() });
        },
      );
      req.on("error", (err) => ((err as NodeJS.ErrnoException).code === "EPIPE" || (err as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(err)));
      stream.pipe(req);
    });
    expect(answer.status).toBe(413);
    // answered on the declared length, long before the upload was through
    expect(answer.atAnswer).toBeLessThan(10 * 1024 * 1024);
  });

  test.each([
    ["/contact-us", "application/x-www-form-urlencoded"],
    ["/supported-sites", "application/x-www-form-urlencoded"],
    ["/newsletter", "application/json"],
    ["/blog/some-article", "multipart/form-data; boundary=x"],
  ])("a chunked body of any size to %s stops being read at the route's limit", async (path, type) => {
    const { port } = await startHost({ build: echoBuild() });
    const { stream, produced } = lazyBody(60 * 1024 * 1024);
    const res = await chunkedPost(port, path, type, stream, produced);
    expect(res.status).toBe(413);
    expect(res.text).toContain("too large");
    // the server answered at its limit, long before the 60 MB were sent
    expect(res.atAnswer).toBeLessThan(20 * 1024 * 1024);
  });

  test.each([["keep-alive"], ["close"]])("a client still uploading when refused reads the whole 413, and an endless upload is cut off (Connection: %s)", async (connection) => {
    const { port } = await startHost({ build: echoBuild() });
    const outcome = await new Promise<{ response: string; sent: number; error?: string }>((resolve) => {
      let response = "";
      let sent = 0;
      let error: string | undefined;
      const piece = Buffer.alloc(1024 * 1024, "a");
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(`POST /contact-us HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${200 * 1024 * 1024}\r\nConnection: ${connection}\r\n\r\nmessage=`);
        const pump = () => {
          while (!socket.destroyed && sent < 200 * 1024 * 1024) {
            sent += piece.length;
            if (!socket.write(piece)) return void socket.once("drain", pump);
          }
        };
        pump();
      });
      socket.setEncoding("latin1");
      socket.on("data", (d) => (response += d));
      socket.on("error", (err) => (error = (err as NodeJS.ErrnoException).code));
      socket.on("close", () => resolve({ response, sent, error }));
    });
    expect(outcome.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.response).toContain("too large");
    // keep-alive: the server read and discarded up to its bound, then closed the connection;
    // close: our answer ends with a FIN, and the client stops sending on its own
    if (connection === "keep-alive") expect(outcome.sent).toBeGreaterThan(DISCARD_LIMITS.maxBytes / 2);
    expect(outcome.sent).toBeLessThan(200 * 1024 * 1024);
  });

  test("a form within its limit reaches the route with its fields", async () => {
    const { base } = await startHost({ build: echoBuild() });
    const res = await fetch(`${base}/contact-us`, form({ name: "Ada", message: "x".repeat(5000) }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { fields: Record<string, string> };
    expect(body.fields.name).toBe("Ada");
    expect(body.fields.message).toHaveLength(5000);
  });

  test("a multipart form with a file reaches the route", async () => {
    const { base } = await startHost({ build: echoBuild() });
    const fd = new FormData();
    fd.set("content", "Nice article");
    fd.set("image", new Blob([new Uint8Array(1000)], { type: "image/png" }), "a.png");
    const res = await fetch(`${base}/blog/some-article`, { method: "POST", body: fd });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { fields: Record<string, string> }).fields).toEqual({ content: "Nice article", image: "file:1000" });
  });

  test.each([
    ["JSON", "application/json", '{"name":"Ada"}', 415],
    ["plain text", "text/plain", "name=Ada", 415],
    ["no content type", "", "", 415],
    ["a foreign charset", "application/x-www-form-urlencoded; charset=koi8-r", "name=Ada", 415],
    ["a broken multipart boundary", "multipart/form-data; boundary=abc", "--wrong\r\nnot a part\r\n", 400],
    ["multipart without a boundary", "multipart/form-data", "whatever", 400],
  ])("a body that is not a form (%s) is refused with a 4xx, not 500", async (_label, type, body, status) => {
    const { base } = await startHost({ build: echoBuild() });
    const headers: Record<string, string> = type ? { "content-type": type } : {};
    const res = await fetch(`${base}/contact-us`, { method: "POST", headers, body });
    expect(res.status).toBe(status);
    expect((await res.text()).length).toBeGreaterThan(10);
  });

  test("a compressed body is refused: forms are never sent gzipped", async () => {
    const { base } = await startHost({ build: echoBuild() });
    const res = await fetch(`${base}/contact-us`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-encoding": "gzip" },
      body: gzipSync("name=Ada"),
    });
    expect(res.status).toBe(415);
  });

  test("a NUL byte in a form field is refused with 400", async () => {
    const { base } = await startHost({ build: echoBuild() });
    const res = await fetch(`${base}/contact-us`, form({ name: "A\u0000da", message: "hi" }));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("characters that are not allowed");
  });
});

describe("addresses, methods and hosts", () => {
  test.each(["/blog?q=%00", "/blog?tag=%00", "/blog/%00", "/search?q=a%00b", "/blog/%E0%A4%A"])("%s is a 400, not a database error", async (path) => {
    const { base } = await startHost({ build: echoBuild() });
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(400);
  });

  test.each(["/api/v1/dl/%ZZ", "/api/v1/downloads/%ZZ/progress"])("a bad percent-escape in %s is a 400 in the API's shape", async (path) => {
    const { base } = await startHost();
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("request.bad_url");
  });

  test.each(["TRACE", "PUT", "DELETE", "PATCH"])("%s on a page is 405 with Allow", async (method) => {
    const { port } = await startHost({ build: echoBuild() });
    const res = await raw(port, `${method} /faq HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    expect(res.status).toBe(405);
  });

  test.each([
    ["an invalid Host", "Host: exa mple..com/<x>\r\n"],
    ["a Host with a path", "Host: evil.example/path\r\n"],
    ["a Host with a port out of range", "Host: 127.0.0.1:99999\r\n"],
    ["a Host no URL parser accepts", "Host: gm.0\r\n"],
    ["a Host of digits only", "Host: 99999999999999999999999999999\r\n"],
    ["no Host at all", ""],
  ])("%s is a 400", async (_label, hostLine) => {
    const { port } = await startHost({ build: echoBuild() });
    const res = await raw(port, `GET /faq HTTP/1.0\r\n${hostLine}Connection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.body).toContain("Host");
  });

  test("leading double slashes redirect to the same path with one, never to another host", async () => {
    const { base } = await startHost({ build: echoBuild() });
    for (const [path, location] of [["//", "/"], ["//evil.example/x?a=1", "/evil.example/x?a=1"], ["///faq", "/faq"]]) {
      const res = await fetch(`${base}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(308);
      expect(res.headers.get("location"), path).toBe(location);
    }
  });

  test("a request target in absolute form is served as its path; the Host header still names the site", async () => {
    const { port } = await startHost({ build: echoBuild() });
    for (const [target, path] of [
      ["http://evil.example/x", "/x"],
      ["http://127.0.0.1/faq?x=1", "/faq?x=1"],
      ["HTTPS://evil.example:8443/blog#frag", "/blog"],
    ]) {
      const res = await raw(port, `GET ${target} HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      expect(res.status, target).toBe(200);
      expect(JSON.parse(res.body).url, target).toBe(`http://127.0.0.1:${port}${path}`);
    }
    const star = await raw(port, `OPTIONS * HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(star.status).toBe(400);
  });

  test("health probes answer without a Host header", async () => {
    const { port } = await startHost();
    expect((await raw(port, "GET /healthz HTTP/1.0\r\n\r\n")).status).toBe(200);
  });
});

describe("API bodies", () => {
  test("a foreign charset is 415 and a gzip header on a plain body is a 4xx, in the API's shape", async () => {
    const { base } = await startHost();
    const koi = await fetch(`${base}/api/v1/resolve`, { method: "POST", headers: { "content-type": "application/json; charset=koi8-r" }, body: '{"url":"x"}' });
    expect(koi.status).toBe(415);
    expect(((await koi.json()) as { error: { message: string } }).error.message).toMatch(/not accepted/);
    const gz = await fetch(`${base}/api/v1/resolve`, { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: '{"url":"x"}' });
    expect(gz.status).toBeGreaterThanOrEqual(400);
    expect(gz.status).toBeLessThan(500);
    const big = await fetch(`${base}/api/v1/resolve`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "x".repeat(100_000) }) });
    expect(big.status).toBe(413);
  });
});

describe("cross-site requests", () => {
  test("every state-changing endpoint of accounts, plans and the dashboard refuses a post from another site", async () => {
    const { base } = await startHost({ build: echoBuild() });
    const endpoints = [
      "/login",
      "/signup",
      "/logout",
      "/forgot-password",
      "/reset-password",
      "/premium",
      "/dashboard",
      "/billing/portal",
      "/billing/cancel",
      "/api/create-checkout-session",
      "/api/verify-payment",
      "/api/v1/downloads",
    ];
    for (const path of endpoints) {
      const res = await fetch(`${base}${path}`, { ...form({ plan: "pro", name: "x" }), headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" } });
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).toContain("another website");
    }
  });

  test.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["an opaque Origin", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
    ["a foreign Referer", { referer: "https://evil.example/page" }],
  ])("a form post with %s is refused with 403 and never reaches the route", async (_label, headers) => {
    const { base } = await startHost({ build: echoBuild() });
    const res = await fetch(`${base}/newsletter`, { ...form({ email: "victim@example.com" }), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("another website");
  });

  test("a post from our own page, or from a non-browser client, goes through", async () => {
    const { base } = await startHost({ build: echoBuild(), env: { PUBLIC_URL: "https://vidfetch.example" } });
    const variants: Record<string, string>[] = [{ origin: "https://vidfetch.example" }, { origin: base, "sec-fetch-site": "same-origin" }, {}];
    for (const headers of variants) {
      const res = await fetch(`${base}/newsletter`, { ...form({ email: "a@example.com" }), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });

  test("an API post from another site is refused", async () => {
    const { base, calls } = await startHost();
    const res = await fetch(`${base}/api/v1/downloads`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ url: "https://youtu.be/aaaaaaaaaaa", format: "mp4-720" }),
    });
    expect(res.status).toBe(403);
    expect(calls.downloads).toEqual([]);
  });

  test("an <img> on another site cannot start a download; curl and our own page can", async () => {
    const { base, calls } = await startHost();
    const url = `${base}/api/v1/download?url=${encodeURIComponent("https://youtu.be/aaaaaaaaaaa")}&format=mp4-720`;
    const img = await fetch(url, { redirect: "manual", headers: { "sec-fetch-site": "cross-site", "sec-fetch-dest": "image" } });
    expect(img.status).toBe(403);
    const linked = await fetch(url, { redirect: "manual", headers: { referer: "https://evil.example/" } });
    expect(linked.status).toBe(403);
    const dl = await fetch(`${base}/api/v1/dl/some-token`, { redirect: "manual", headers: { "sec-fetch-site": "cross-site" } });
    expect(dl.status).toBe(403);
    expect(calls.downloads).toEqual([]);
    const curl = await fetch(url, { redirect: "manual" });
    expect(curl.status).toBe(302);
    const ours = await fetch(url, { redirect: "manual", headers: { "sec-fetch-site": "same-origin" } });
    expect(ours.status).toBe(302);
    const typed = await fetch(url, { redirect: "manual", headers: { "sec-fetch-site": "none" } });
    expect(typed.status).toBe(302);
    expect(calls.downloads).toHaveLength(3);
  });

  test("a download embedded as an image, script or media on our own pages is refused; following the link is not", async () => {
    const { base, calls } = await startHost();
    const url = `${base}/api/v1/download?url=${encodeURIComponent("https://youtu.be/aaaaaaaaaaa")}&format=mp4-720`;
    for (const dest of ["image", "script", "style", "video", "audio", "font", "object"]) {
      const res = await fetch(url, { redirect: "manual", headers: { "sec-fetch-site": "same-origin", "sec-fetch-dest": dest } });
      expect(res.status, dest).toBe(403);
      expect((await res.json()).error.message).toMatch(/following its link/);
      const dl = await fetch(`${base}/api/v1/dl/some-token`, { redirect: "manual", headers: { "sec-fetch-site": "same-origin", "sec-fetch-dest": dest } });
      expect(dl.status, `dl as ${dest}`).toBe(403);
    }
    expect(calls.downloads).toEqual([]);
    for (const dest of ["document", "empty"]) {
      const res = await fetch(url, { redirect: "manual", headers: { "sec-fetch-site": "same-origin", "sec-fetch-dest": dest } });
      expect(res.status, dest).toBe(302);
    }
    expect(calls.downloads).toHaveLength(2);
  });
});

describe("what the host reveals", () => {
  test("the OpenAPI document names PUBLIC_URL, whatever the Host header says", async () => {
    const { port } = await startHost({ env: { PUBLIC_URL: "https://vidfetch.example" } });
    const res = await raw(port, "GET /api/v1/openapi.json HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(200);
    expect(res.body).toContain("https://vidfetch.example");
    expect(res.body).not.toContain("evil.example");
  });

  test("readyz does not reveal the ffmpeg version", async () => {
    const { base } = await startHost();
    const body = await (await fetch(`${base}/readyz`)).text();
    expect(body).toContain('"ffmpeg":"ok"');
    expect(body).not.toContain("5.1");
  });

  test("access logs name a download by its id, never its replayable link or a visitor's query", async () => {
    const lines: string[] = [];
    const logTo = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { base } = await startHost({ logTo });
    const token = signDownload("x", { id: "dl_logged", url: "https://youtu.be/x", format: "mp4-720", caller: "anonymous", exp: 2_000_000_000 });
    await fetch(`${base}/api/v1/dl/${token}`).catch(() => undefined);
    await fetch(`${base}/api/v1/download?url=${encodeURIComponent("https://youtu.be/private-list")}&format=mp4-720`, { redirect: "manual" });
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join("");
    expect(log).toContain("dl_logged");
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(token.indexOf(".") + 1));
    expect(log).not.toContain("private-list");
  });
});
