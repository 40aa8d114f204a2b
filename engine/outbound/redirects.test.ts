import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseHostMap } from "./host-map.ts";
import type { ExchangeAttempt, ExchangeHop } from "./http-exchange.ts";
import { followRedirects, type RedirectPolicy } from "./redirects.ts";

/** a response as the exchange would give it: status, headers, an empty body */
function answer(status: number, headers: Record<string, string> = {}): IncomingMessage {
  return Object.assign(new PassThrough(), { statusCode: status, headers }) as unknown as IncomingMessage;
}

function policy(answers: Record<string, IncomingMessage | (() => IncomingMessage)>, over: Partial<RedirectPolicy> = {}) {
  const calls: Array<{ target: string; hop: ExchangeHop; attempt: ExchangeAttempt }> = [];
  const p: RedirectPolicy = {
    hostMap: [],
    allowPrivate: false,
    maxRedirects: 3,
    exchange: async (target, hop, attempt) => {
      calls.push({ target: target.href, hop, attempt });
      const a = answers[target.href];
      if (!a) throw new Error(`unexpected request to ${target.href}`);
      return typeof a === "function" ? a() : a;
    },
    ...over,
  };
  return { p, calls };
}

const get = (headers: Record<string, string> = {}): ExchangeAttempt => ({ method: "GET", headers: new Headers(headers), body: null, capped: true });

describe("followRedirects", () => {
  it("follows a chain, reports the final URL, and drops credentials at another origin", async () => {
    const { p, calls } = policy({
      "https://a.example/x": answer(302, { location: "/y" }),
      "https://a.example/y": answer(301, { location: "https://b.example/z" }),
      "https://b.example/z": answer(200),
    });
    const r = await followRedirects(p, new URL("https://a.example/x"), get({ cookie: "s=1", authorization: "Bearer t" }), {});
    expect(r.url.href).toBe("https://b.example/z");
    expect(r.redirected).toBe(true);
    expect(calls[1]!.attempt.headers.get("cookie")).toBe("s=1");
    expect(calls[2]!.attempt.headers.get("cookie")).toBeNull();
    expect(calls[2]!.attempt.headers.get("authorization")).toBeNull();
    // names are connected through the guarded lookup
    expect(calls.every((c) => c.hop.guarded)).toBe(true);
  });

  it("gives every hop the scoped cookies its URL matches, replacing the caller's, and none to another host", async () => {
    const { p, calls } = policy(
      {
        "https://v16.tiktok.example/v.mp4": answer(302, { location: "https://v19.tiktok.example/v.mp4" }),
        "https://v19.tiktok.example/v.mp4": answer(302, { location: "https://media.elsewhere.example/v.mp4" }),
        "https://media.elsewhere.example/v.mp4": answer(302, { location: "https://v16.tiktok.example/back.mp4" }),
        "https://v16.tiktok.example/back.mp4": answer(200),
      },
      { maxRedirects: 5 },
    );
    const cookies = [{ name: "tt", value: "1", domain: "tiktok.example", hostOnly: false, path: "/", secure: true, expires: null }];
    await followRedirects(p, new URL("https://v16.tiktok.example/v.mp4"), get({ cookie: "caller=1", referer: "https://www.tiktok.example/" }), { cookies });
    expect(calls.map((c) => c.attempt.headers.get("cookie"))).toEqual(["tt=1", "tt=1", null, "tt=1"]);
    // the other headers follow a redirect as a browser's do
    expect(calls[2]!.attempt.headers.get("referer")).toBe("https://www.tiktok.example/");
  });

  it("still refuses a private address on a hop that carries cookies", async () => {
    const { p, calls } = policy({ "https://v16.tiktok.example/v": answer(302, { location: "http://10.0.0.5/v" }) });
    const cookies = [{ name: "tt", value: "1", domain: "tiktok.example", hostOnly: false, path: "/", secure: false, expires: null }];
    await expect(followRedirects(p, new URL("https://v16.tiktok.example/v"), get(), { cookies })).rejects.toMatchObject({ code: "link.blocked_address" });
    expect(calls).toHaveLength(1);
  });

  it("turns a POST into a GET on 303 and keeps it on 307", async () => {
    const post: ExchangeAttempt = { method: "POST", headers: new Headers({ "content-type": "application/json" }), body: Buffer.from("{}"), capped: false };
    const seeOther = policy({ "https://a.example/p": answer(303, { location: "/r" }), "https://a.example/r": answer(200) });
    await followRedirects(seeOther.p, new URL("https://a.example/p"), post, {});
    expect(seeOther.calls[1]!.attempt).toMatchObject({ method: "GET", body: null });
    expect(seeOther.calls[1]!.attempt.headers.get("content-type")).toBeNull();
    const temporary = policy({ "https://a.example/p": answer(307, { location: "/r" }), "https://a.example/r": answer(200) });
    await followRedirects(temporary.p, new URL("https://a.example/p"), post, {});
    expect(temporary.calls[1]!.attempt).toMatchObject({ method: "POST", body: post.body });
  });

  it("refuses a redirect to a private address before connecting, even from a trusted first hop", async () => {
    const { p, calls } = policy({ "https://api.example/v1": answer(302, { location: "http://169.254.169.254/latest" }) });
    await expect(followRedirects(p, new URL("https://api.example/v1"), get(), { trusted: true })).rejects.toMatchObject({ code: "link.blocked_address" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.hop.guarded).toBe(false);
  });

  it("sends a mapped host to its origin, naming the original host, without the guard", async () => {
    const { p, calls } = policy({ "http://127.0.0.1:9000/v?x=1": answer(200) }, { hostMap: parseHostMap("cdn.example.com=http://127.0.0.1:9000") });
    const r = await followRedirects(p, new URL("https://cdn.example.com/v?x=1"), get(), {});
    expect(r.url.href).toBe("https://cdn.example.com/v?x=1");
    expect(calls[0]!.hop).toEqual({ guarded: false, originalHost: "cdn.example.com" });
  });

  it("stops after maxRedirects, on redirect: error, and leaves a redirect alone with redirect: manual", async () => {
    const loop = policy({ "https://a.example/l": () => answer(302, { location: "/l" }) });
    await expect(followRedirects(loop.p, new URL("https://a.example/l"), get(), {})).rejects.toMatchObject({ code: "upstream.fetch_failed", detail: "more than 3 redirects" });
    expect(loop.calls).toHaveLength(4);
    await expect(followRedirects(loop.p, new URL("https://a.example/l"), get(), { redirect: "error" })).rejects.toMatchObject({ detail: "unexpected redirect from a.example" });
    const manual = await followRedirects(loop.p, new URL("https://a.example/l"), get(), { redirect: "manual" });
    expect(manual.res.statusCode).toBe(302);
    await expect(followRedirects(loop.p, new URL("ftp://a.example/f"), get(), {})).rejects.toMatchObject({ code: "link.unsupported" });
  });
});
