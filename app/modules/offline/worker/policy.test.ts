import { describe, expect, it } from "vitest";
import { SHELL_PAGES, parseWorkerMessage, previewKey } from "../offline-contract.ts";
import { classifyRequest, isSignOutRequest, isStorablePage, shellPathFor } from "./policy.ts";

const ORIGIN = "https://vidfetch.example";
const req = (path: string, over: Partial<{ method: string; mode: string; destination: string }> = {}) => ({
  url: path.startsWith("http") ? path : `${ORIGIN}${path}`,
  method: "GET",
  mode: "cors",
  destination: "",
  ...over,
});
const nav = (path: string) => req(path, { mode: "navigate", destination: "document" });

describe("which requests the service worker handles", () => {
  it("never downloads, signed links, API answers, billing redirects or itself", () => {
    for (const path of ["/api/v1/download?url=x&format=mp4-720", "/api/v1/dl/abc.def", "/api/v1/resolve", "/api/v1/progress/1", "/api/stripe/webhook", "/billing/portal", "/service-worker.js"]) {
      expect(classifyRequest(nav(path), ORIGIN), path).toBeNull();
      expect(classifyRequest(req(path), ORIGIN), path).toBeNull();
    }
  });

  it("never a request that changes something", () => {
    expect(classifyRequest({ ...nav("/contact-us"), method: "POST" }, ORIGIN)).toBeNull();
    expect(classifyRequest({ ...req("/logout"), method: "POST" }, ORIGIN)).toBeNull();
  });

  it("pages, route data, our images and other origins' images", () => {
    expect(classifyRequest(nav("/blog/some-article"), ORIGIN)).toBe("page");
    expect(classifyRequest(nav("/?url=https%3A%2F%2Fyoutu.be%2Fx"), ORIGIN)).toBe("page");
    expect(classifyRequest(req("/blog/some-article.data"), ORIGIN)).toBe("route-data");
    expect(classifyRequest(req("/__manifest?p=%2Ffaq&version=abc"), ORIGIN)).toBe("route-data");
    expect(classifyRequest(req("/blog/covers/a.webp", { destination: "image" }), ORIGIN)).toBe("image");
    expect(classifyRequest(req("https://i.ytimg.com/vi/x/hqdefault.jpg", { destination: "image" }), ORIGIN)).toBe("thumbnail");
  });

  it("leaves everything else to the browser", () => {
    expect(classifyRequest(req("https://i.ytimg.com/vi/x/hqdefault.jpg"), ORIGIN)).toBeNull();
    expect(classifyRequest(req("https://www.youtube-nocookie.com/embed/x", { mode: "navigate", destination: "iframe" }), ORIGIN)).toBeNull();
    expect(classifyRequest(req("/assets/entry.client-abc.js", { destination: "script" }), ORIGIN)).toBeNull();
    expect(classifyRequest(req("chrome-extension://abc/x.js"), ORIGIN)).toBeNull();
    expect(classifyRequest(req("not a url"), ORIGIN)).toBeNull();
  });
});

describe("which answers are kept for offline use", () => {
  const res = (status: number, headers: Record<string, string> = {}, type = "basic") => ({ status, type, headers: new Headers(headers) });

  it("a 200 meant for anyone", () => {
    expect(isStorablePage(res(200, { "content-type": "text/html" }))).toBe(true);
    expect(isStorablePage(res(200, { "cache-control": "public, s-maxage=60, stale-while-revalidate=600" }))).toBe(true);
  });

  it("never a signed-in visitor's page, an error or a redirect", () => {
    expect(isStorablePage(res(200, { "cache-control": "private, no-store" }))).toBe(false);
    expect(isStorablePage(res(200, { "cache-control": "no-store" }))).toBe(false);
    expect(isStorablePage(res(200, { "Cache-Control": "Private" }))).toBe(false);
    expect(isStorablePage(res(200, { vary: "*" }))).toBe(false);
    expect(isStorablePage(res(404))).toBe(false);
    expect(isStorablePage(res(500))).toBe(false);
    expect(isStorablePage(res(0, {}, "opaqueredirect"))).toBe(false);
  });

  it("every way of signing out is seen, and nothing else", () => {
    for (const path of ["/logout", "/logout.data", "/api/auth/sign-out"]) expect(isSignOutRequest({ url: `${ORIGIN}${path}`, method: "POST" }, ORIGIN), path).toBe(true);
    expect(isSignOutRequest({ url: `${ORIGIN}/logout`, method: "GET" }, ORIGIN)).toBe(false);
    expect(isSignOutRequest({ url: "https://evil.example/logout", method: "POST" }, ORIGIN)).toBe(false);
    expect(isSignOutRequest({ url: `${ORIGIN}/contact-us.data`, method: "POST" }, ORIGIN)).toBe(false);
  });

  it("offline, a shell page stands in for its own path whatever the query", () => {
    expect(shellPathFor(`${ORIGIN}/?url=abc`, SHELL_PAGES)).toBe("/");
    expect(shellPathFor(`${ORIGIN}/tools/text#x`, SHELL_PAGES)).toBe("/tools/text");
    expect(shellPathFor(`${ORIGIN}/faq`, SHELL_PAGES)).toBeNull();
  });
});

describe("messages a page may post", () => {
  it("CACHED_FOR_OFFLINE with and without a video", () => {
    expect(parseWorkerMessage({ type: "CACHED_FOR_OFFLINE" })).toEqual({ type: "CACHED_FOR_OFFLINE" });
    expect(parseWorkerMessage({ type: "CACHED_FOR_OFFLINE", videoId: "dQw4w9WgXcQ", title: "A video", thumbnail: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" })).toEqual({
      type: "CACHED_FOR_OFFLINE",
      videoId: "dQw4w9WgXcQ",
      title: "A video",
      thumbnail: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
    });
  });

  it("drops what it cannot trust: a non-http thumbnail, an oversized title, a bad id", () => {
    expect(parseWorkerMessage({ type: "CACHED_FOR_OFFLINE", videoId: "a", thumbnail: "javascript:alert(1)" })).toEqual({ type: "CACHED_FOR_OFFLINE", videoId: "a", title: undefined, thumbnail: undefined });
    expect(parseWorkerMessage({ type: "CACHED_FOR_OFFLINE", videoId: "a", title: "x".repeat(301) })).toMatchObject({ title: undefined });
    expect(parseWorkerMessage({ type: "CACHED_FOR_OFFLINE", videoId: 42 })).toBeNull();
    expect(parseWorkerMessage({ type: "CACHED_FOR_OFFLINE", videoId: "" })).toBeNull();
    expect(parseWorkerMessage({ type: "REMOVED_FROM_OFFLINE" })).toBeNull();
    expect(parseWorkerMessage({ type: "SOMETHING_ELSE" })).toBeNull();
    expect(parseWorkerMessage("SKIP_WAITING")).toBeNull();
    expect(parseWorkerMessage({ type: "SKIP_WAITING" })).toEqual({ type: "SKIP_WAITING" });
    expect(parseWorkerMessage({ type: "SIGNED_OUT" })).toEqual({ type: "SIGNED_OUT" });
  });

  it("a preview's key stays inside its own folder whatever the id", () => {
    expect(previewKey("../../api/v1/x?y")).toBe("/__offline-preview/..%2F..%2Fapi%2Fv1%2Fx%3Fy");
  });
});
