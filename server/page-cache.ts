import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { SESSION_COOKIE_PREFIX } from "#app/modules/account/auth.server.ts";
import { VISITOR_COOKIE } from "#app/modules/blog/visitor.server.ts";

/**
 * Caching of anonymous pages (docs/decisions/018-cacheable-pages.md). A page is the same for
 * every visitor without a session or blog visitor cookie, so it is sent with an ETag and a
 * shared-cache lifetime, and kept here, in a small in-process LRU bounded by bytes and keyed by
 * URL. A page with per-visitor content never is: a request carrying such a cookie, a response
 * that sets a cookie or chose its own Cache-Control (the dashboard, the account pages), and
 * anything other than a 200 answer to a GET.
 */

/** How long a page may be served without asking us again: by a shared cache (s-maxage) and by this one. */
export const PAGE_FRESH_SECONDS = 60;
/** How much longer a shared cache may serve a stale copy while it fetches a new one. */
export const PAGE_STALE_SECONDS = 600;
export const PUBLIC_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${PAGE_FRESH_SECONDS}, stale-while-revalidate=${PAGE_STALE_SECONDS}`;
export const PRIVATE_PAGE_CACHE_CONTROL = "private, no-store";
/** Tells an operator (and the tests) whether the in-process cache answered. */
export const PAGE_CACHE_HEADER = "X-Page-Cache";

/** A page is not kept when it alone would take more than this share of the cache. */
const MAX_ENTRY_SHARE = 4;

export interface CachedPage {
  /** the URL's path, for dropping every query variant after a form post to it */
  pathname: string;
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** the same body gzipped once at store time, so a hit costs no compression */
  gzip: Buffer;
  etag: string;
  storedAt: number;
  bytes: number;
}

export interface PageCache {
  get(key: string): CachedPage | undefined;
  set(key: string, page: Omit<CachedPage, "gzip" | "storedAt" | "bytes">): void;
  /** drops every entry for this path (any query): the page may have changed */
  deletePath(pathname: string): void;
  stats(): { entries: number; bytes: number; maxBytes: number };
}

export function createPageCache(opts: { maxBytes: number; ttlMs?: number; now?: () => number }): PageCache {
  const ttlMs = opts.ttlMs ?? PAGE_FRESH_SECONDS * 1000;
  const now = opts.now ?? Date.now;
  // a Map iterates in insertion order: re-inserting on every hit makes the first key the least recently used
  const entries = new Map<string, CachedPage>();
  let bytes = 0;

  const remove = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    bytes -= e.bytes;
  };

  return {
    get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (now() - e.storedAt >= ttlMs) {
        remove(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, e);
      return e;
    },
    set(key, page) {
      remove(key);
      const gzip = gzipSync(page.body);
      const size = key.length + page.body.length + gzip.length + page.headers.reduce((n, [k, v]) => n + k.length + v.length, 0);
      if (size * MAX_ENTRY_SHARE > opts.maxBytes) return;
      entries.set(key, { ...page, gzip, storedAt: now(), bytes: size });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= opts.maxBytes) break;
        remove(oldest);
      }
    },
    deletePath(pathname) {
      for (const [key, e] of entries) if (e.pathname === pathname) remove(key);
    },
    stats: () => ({ entries: entries.size, bytes, maxBytes: opts.maxBytes }),
  };
}

const SESSION_COOKIE = new RegExp(`(?:^|;)\\s*(?:__Secure-|__Host-)?${SESSION_COOKIE_PREFIX}\\.[^=;]*=`);
const BLOG_VISITOR_COOKIE = new RegExp(`(?:^|;)\\s*${VISITOR_COOKIE}=`);

/**
 * A session cookie (better-auth) anywhere, or the blog's visitor cookie on an article (whose
 * comments show the visitor's own likes): what this visitor sees may be theirs alone.
 */
export function hasPerVisitorCookie(req: Request): boolean {
  const cookie = req.headers.cookie;
  if (!cookie) return false;
  return SESSION_COOKIE.test(cookie) || (req.path.startsWith("/blog/") && BLOG_VISITOR_COOKIE.test(cookie));
}

/** The cache key: one rendering per origin and URL (path and query). */
export const pageCacheKey = (req: Request) => `${req.protocol}://${req.host}${req.originalUrl}`;

/** The page a form's POST may have changed: `/blog/x.data` (a fetcher's post) is `/blog/x`, `/_root.data` is `/`. */
export function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

export function etagOf(body: Buffer): string {
  // weak: the bytes on the wire differ when the body is compressed
  return `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/**
 * Answers GET and HEAD for a cached anonymous page before the rest of the stack runs; a 304
 * when the client's If-None-Match still matches.
 */
export function servePageFromCache(cache: PageCache) {
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || hasPerVisitorCookie(req)) return next();
    const page = cache.get(pageCacheKey(req));
    if (!page) return next();
    res.status(page.status);
    for (const [k, v] of page.headers) res.setHeader(k, v);
    res.setHeader(PAGE_CACHE_HEADER, "hit");
    sendCachedBody(req, res, page);
  };
}

/**
 * RFC 9110 §13.1.2: If-None-Match compares entity tags weakly, and an origin server evaluates it
 * whatever Cache-Control the request carries (Express's req.fresh gives up on `no-cache`, which
 * fetch() adds to every conditional request).
 */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch || !etag) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/** The body (gzipped when the client takes gzip), or a 304; the caller has set the headers, ETag included. */
export function sendCachedBody(req: Request, res: Response, page: { body: Buffer; gzip?: Buffer }) {
  if (notModified(req.headers["if-none-match"], String(res.getHeader("ETag") ?? ""))) {
    res.removeHeader("Content-Type");
    res.status(304).end();
    return;
  }
  res.setHeader("Vary", "Accept-Encoding");
  const gzip = page.gzip && /\bgzip\b/i.test(req.headers["accept-encoding"] ?? "") ? page.gzip : undefined;
  const body = gzip ?? page.body;
  // an encoded response is passed over by the compression middleware
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}
