import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { createPageCache, pagePathOf } from "./page-cache.ts";

// incompressible bodies, so each entry's size (body plus its gzip copy) is about twice the body
const page = (pathname: string, size: number) => ({
  pathname,
  status: 200,
  headers: [["content-type", "text/html"]] as [string, string][],
  body: randomBytes(size),
  etag: `W/"${pathname}"`,
});

describe("the page cache", () => {
  test("stays under its byte bound by dropping the least recently used page", () => {
    const cache = createPageCache({ maxBytes: 10_000 });
    for (const p of ["/a", "/b", "/c", "/d"]) cache.set(p, page(p, 1000));
    expect(cache.stats().entries).toBe(4);
    expect(cache.get("/a")).toBeDefined(); // /a is now the most recently used
    cache.set("/e", page("/e", 1000));
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")?.body.length).toBe(1000);
    for (const p of ["/c", "/d", "/e"]) expect(cache.get(p)).toBeDefined();
  });

  test("does not keep a page that would take more than a quarter of it", () => {
    const cache = createPageCache({ maxBytes: 10_000 });
    cache.set("/big", page("/big", 3000));
    expect(cache.get("/big")).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  test("forgets a page after its lifetime", () => {
    let now = 0;
    const cache = createPageCache({ maxBytes: 100_000, ttlMs: 60_000, now: () => now });
    cache.set("/a", page("/a", 100));
    now = 59_999;
    expect(cache.get("/a")).toBeDefined();
    now = 60_000;
    expect(cache.get("/a")).toBeUndefined();
    expect(cache.stats().bytes).toBe(0);
  });

  test("drops every query variant of a path, and only that path", () => {
    const cache = createPageCache({ maxBytes: 100_000 });
    cache.set("http://h/blog/x", page("/blog/x", 10));
    cache.set("http://h/blog/x?ref=1", page("/blog/x", 10));
    cache.set("http://h/blog/y", page("/blog/y", 10));
    cache.deletePath("/blog/x");
    expect(cache.stats().entries).toBe(1);
    expect(cache.get("http://h/blog/y")).toBeDefined();
  });

  test("a fetcher's post to /x.data is a post to the page /x", () => {
    expect(pagePathOf("/blog/a.data")).toBe("/blog/a");
    expect(pagePathOf("/_root.data")).toBe("/");
    expect(pagePathOf("/contact-us")).toBe("/contact-us");
  });
});
