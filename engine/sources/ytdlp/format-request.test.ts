import { describe, expect, it } from "vitest";
import { headerCookies, parseYtdlpCookies, requestOf } from "./format-request.ts";

describe("yt-dlp's cookies field", () => {
  it("reads each cookie with its Domain, Path, Secure and Expires, undoing SimpleCookie's quotes", () => {
    const text = 'tt_chain_token="Ab3/xY+9Zq=="; Domain=.tiktok.com; Path=/; Secure; Expires=1900000000; sid_tt=abc; Domain=v16-webapp-prime.tiktok.com; Path=/video; Version=0';
    expect(parseYtdlpCookies(text)).toEqual([
      { name: "tt_chain_token", value: "Ab3/xY+9Zq==", domain: "tiktok.com", hostOnly: false, path: "/", secure: true, expires: 1900000000 },
      { name: "sid_tt", value: "abc", domain: "v16-webapp-prime.tiktok.com", hostOnly: true, path: "/video", secure: false, expires: null },
    ]);
    // escapes come back as the characters they stand for: here one a Cookie header cannot carry (";")
    expect(parseYtdlpCookies('a="x\\054y"; Domain=.x.com; b="x\\073y"; Domain=.x.com').map((c) => c.value)).toEqual(["x,y"]);
  });

  it("leaves out cookies without a Domain, with a value no Cookie header can carry, or with a bad name", () => {
    expect(parseYtdlpCookies("a=1; Path=/; b=2; Domain=.x.com; c=\"line\\012break\"; Domain=.x.com; d e=3; Domain=.x.com")).toEqual([
      { name: "b", value: "2", domain: "x.com", hostOnly: false, path: "/", secure: false, expires: null },
    ]);
  });

  it("reads an HTTP date as Expires too", () => {
    expect(parseYtdlpCookies("a=1; Domain=.x.com; Expires=Thu, 01-Jan-2032 00:00:00 GMT")[0]?.expires).toBe(Date.UTC(2032, 0, 1) / 1000);
  });

  it("scopes an old-style Cookie header to the host it was made for, exactly", () => {
    expect(headerCookies("tt_chain_token=Ab3/xY+9Zq==; ttwid=1%7Cq0", new URL("https://v16-webapp-prime.tiktok.com/video/x.mp4"))).toEqual([
      { name: "tt_chain_token", value: "Ab3/xY+9Zq==", domain: "v16-webapp-prime.tiktok.com", hostOnly: true, path: "/", secure: true, expires: null },
      { name: "ttwid", value: "1%7Cq0", domain: "v16-webapp-prime.tiktok.com", hostOnly: true, path: "/", secure: true, expires: null },
    ]);
  });
});

describe("a format's request", () => {
  it("keeps the headers a CDN checks and drops hop-by-hop, Range, Host, credentials and forged addresses", () => {
    const request = requestOf(
      {
        http_headers: {
          "User-Agent": "Mozilla/5.0 (X11) Chrome/134.0",
          Accept: "*/*",
          "Accept-Language": "en-us,en;q=0.5",
          "Sec-Fetch-Mode": "navigate",
          Referer: "https://www.tiktok.com/@someone/video/1",
          Origin: "https://www.tiktok.com",
          "X-Playback-Session-Id": "5D1E",
          "Accept-Encoding": "gzip, deflate",
          Connection: "keep-alive",
          Range: "bytes=0-",
          Host: "evil.example",
          Authorization: "Bearer abc",
          "Proxy-Authorization": "Basic abc",
          "X-Forwarded-For": "1.2.3.4",
          "X-Real-IP": "1.2.3.4",
          "Transfer-Encoding": "chunked",
          "X-Bad": "line\r\nInjected: yes",
          "Bad Name": "x",
          Number: 3,
        },
      },
      new URL("https://v16.tiktok.com/v.mp4"),
    );
    expect(request).toEqual({
      headers: {
        "user-agent": "Mozilla/5.0 (X11) Chrome/134.0",
        accept: "*/*",
        "accept-language": "en-us,en;q=0.5",
        "sec-fetch-mode": "navigate",
        referer: "https://www.tiktok.com/@someone/video/1",
        origin: "https://www.tiktok.com",
        "x-playback-session-id": "5D1E",
      },
    });
  });

  it("turns both kinds of cookies into scoped ones and never keeps a Cookie header", () => {
    const url = new URL("https://v16.tiktok.com/v.mp4");
    const old = requestOf({ http_headers: { Referer: "https://www.tiktok.com/", Cookie: "a=1" } }, url);
    expect(old).toEqual({ headers: { referer: "https://www.tiktok.com/" }, cookies: [{ name: "a", value: "1", domain: "v16.tiktok.com", hostOnly: true, path: "/", secure: true, expires: null }] });
    const current = requestOf({ http_headers: {}, cookies: "a=1; Domain=.tiktok.com; Path=/" }, url);
    expect(current).toEqual({ cookies: [{ name: "a", value: "1", domain: "tiktok.com", hostOnly: false, path: "/", secure: false, expires: null }] });
  });

  it("is absent when the format needs nothing", () => {
    expect(requestOf({}, null)).toBeUndefined();
    expect(requestOf({ http_headers: { Connection: "close" } }, null)).toBeUndefined();
  });
});
