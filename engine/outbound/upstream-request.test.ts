import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ScopedCookie } from "../types.ts";
import type { OutboundInit } from "./outbound-fetch.ts";
import { cookieHeaderFor, openWithRequest } from "./upstream-request.ts";

const cookie = (over: Partial<ScopedCookie>): ScopedCookie => ({ name: "c", value: "1", domain: "tiktok.com", hostOnly: false, path: "/", secure: false, expires: null, ...over });
const NOW = Date.UTC(2026, 10, 27);
const header = (cookies: ScopedCookie[], url: string) => cookieHeaderFor(cookies, new URL(url), NOW);

describe("which cookies a request carries", () => {
  it("a domain cookie reaches its domain and the hosts under it, never a look-alike or another host", () => {
    const c = [cookie({ name: "tt_chain_token", value: "Ab3/x==" })];
    expect(header(c, "https://tiktok.com/")).toBe("tt_chain_token=Ab3/x==");
    expect(header(c, "https://v16-webapp-prime.tiktok.com/video/x.mp4")).toBe("tt_chain_token=Ab3/x==");
    expect(header(c, "https://nottiktok.com/")).toBeNull();
    expect(header(c, "https://tiktok.com.evil.example/")).toBeNull();
    expect(header(c, "https://media.elsewhere.example/x.mp4")).toBeNull();
  });

  it("a host-only cookie reaches its host alone", () => {
    const c = [cookie({ domain: "v16.tiktok.com", hostOnly: true })];
    expect(header(c, "https://v16.tiktok.com/a")).toBe("c=1");
    expect(header(c, "https://a.v16.tiktok.com/a")).toBeNull();
    expect(header(c, "https://tiktok.com/a")).toBeNull();
  });

  it("honours Path, Secure and Expires, longer paths first", () => {
    const c = [cookie({ name: "root" }), cookie({ name: "deep", path: "/video" }), cookie({ name: "safe", secure: true }), cookie({ name: "old", expires: NOW / 1000 - 1 })];
    expect(header(c, "https://v.tiktok.com/video/x.mp4")).toBe("deep=1; root=1; safe=1");
    expect(header(c, "https://v.tiktok.com/videos")).toBe("root=1; safe=1");
    expect(header(c, "http://v.tiktok.com/video")).toBe("deep=1; root=1");
  });

  it("a domain cookie never reaches an address", () => {
    expect(header([cookie({ domain: "0.0.1" })], "http://127.0.0.1/")).toBeNull();
  });
});

describe("a stream's open", () => {
  it("adds the stream's headers under the caller's own and hands its cookies to the door, reading the current request each time", async () => {
    const seen: OutboundInit[] = [];
    const open = async (_url: string | URL, init: OutboundInit = {}) => {
      seen.push(init);
      return { status: 200, statusText: "OK", headers: new Headers(), url: "", redirected: false, body: Readable.from([]) };
    };
    let current = { headers: { referer: "https://www.tiktok.com/", "user-agent": "UA/1" }, cookies: [cookie({})] };
    const wrapped = openWithRequest(open, () => current);
    await wrapped("https://v16.tiktok.com/v.mp4", { headers: { range: "bytes=0-9", "user-agent": "caller" } });
    current = { headers: { referer: "https://www.tiktok.com/2", "user-agent": "UA/1" }, cookies: [] };
    await wrapped("https://v16.tiktok.com/v.mp4");
    const first = new Headers(seen[0]!.headers);
    expect([first.get("referer"), first.get("user-agent"), first.get("range")]).toEqual(["https://www.tiktok.com/", "caller", "bytes=0-9"]);
    expect(seen[0]!.cookies).toEqual([cookie({})]);
    expect(new Headers(seen[1]!.headers).get("referer")).toBe("https://www.tiktok.com/2");
    expect(seen[1]!.cookies).toBeUndefined();
  });
});
