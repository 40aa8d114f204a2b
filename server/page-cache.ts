import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
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
export function hasPerVisitorCookie(cookie: string | undefined, pathname: string): boolean {
  if (!cookie) return false;
  return SESSION_COOKIE.test(cookie) || (pathname.startsWith("/blog/") && BLOG_VISITOR_COOKIE.test(cookie));
}

/** Express's compiled "trust proxy" setting: whether the hop at this address may be believed. */
export type TrustProxy = (address: string | undefined, hop: number) => boolean;

const firstValue = (header: string | string[] | undefined) => {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return undefined;
  const comma = v.indexOf(",");
  return (comma === -1 ? v : v.slice(0, comma)).trim();
};

/**
 * The origin a request was made to, read as Express reads `req.protocol` and `req.host`: the
 * X-Forwarded-Proto/-Host headers count only when the peer is a trusted proxy. One function
 * for the page handler (which stores) and the fast path (which looks up), so keys always agree.
 */
export function requestOrigin(req: IncomingMessage, trust: TrustProxy): { protocol: string; host: string | undefined } {
  const direct = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  if (!trust(req.socket.remoteAddress, 0)) return { protocol: direct, host: req.headers.host };
  return {
    protocol: firstValue(req.headers["x-forwarded-proto"]) || direct,
    host: firstValue(req.headers["x-forwarded-host"]) || req.headers.host,
  };
}

/** The cache key: one rendering per origin and URL (path and query, origin-form). */
export function pageCacheKey(req: IncomingMessage, url: string, trust: TrustProxy): string {
  const { protocol, host } = requestOrigin(req, trust);
  return `${protocol}://${host}${url}`;
}

/** The page a form's POST may have changed: `/blog/x.data` (a fetcher's post) is `/blog/x`, `/_root.data` is `/`. */
export function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

export function etagOf(body: Buffer): string {
  // weak: the bytes on the wire differ when the body is compressed
  return `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

export interface CachedPageAnswerOptions {
  trust: TrustProxy;
  /** the site-wide security headers (the page's own CSP follows and replaces the default one) */
  securityHeaders: (secure: boolean) => readonly (readonly [string, string])[];
  /** the access log line of an answered request */
  log: (req: IncomingMessage, status: number, startedAt: number) => void;
}

/**
 * Answers GET and HEAD for a cached anonymous page straight from Node's request event, before
 * Express and its middleware run (about three quarters of a small request's cost): a 304 when
 * the client's If-None-Match still matches. Returns false, having written nothing, when the
 * request is not one it can answer; the full stack then handles it.
 *
 * What the skipped middleware would have done is done here or cannot apply: the page was
 * stored under this exact origin and URL after the host and URL guards let it through, the
 * security headers are the same for every page, and a GET needs no cross-site check or body.
 */
export function answerFromPageCache(cache: PageCache, opts: CachedPageAnswerOptions) {
  // the header block of each stored page, per scheme, flattened once: [name, value, name, value…]
  const wire = new WeakMap<CachedPage, { http?: string[]; https?: string[] }>();
  const headerBlock = (page: CachedPage, secure: boolean): string[] => {
    const byPage = wire.get(page) ?? {};
    wire.set(page, byPage);
    const scheme = secure ? "https" : "http";
    const known = byPage[scheme];
    if (known) return known;
    // the page's own headers (its CSP among them) replace the site-wide defaults of the same name
    const merged = new Map<string, [string, string]>();
    for (const [k, v] of [...opts.securityHeaders(secure), ...page.headers]) merged.set(k.toLowerCase(), [k, v]);
    merged.set("vary", ["Vary", "Accept-Encoding"]);
    merged.set(PAGE_CACHE_HEADER.toLowerCase(), [PAGE_CACHE_HEADER, "hit"]);
    const block = [...merged.values()].flat();
    byPage[scheme] = block;
    return block;
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const startedAt = performance.now();
    const url = req.url ?? "";
    if ((req.method !== "GET" && req.method !== "HEAD") || !url.startsWith("/")) return false;
    const q = url.indexOf("?");
    if (hasPerVisitorCookie(req.headers.cookie, q === -1 ? url : url.slice(0, q))) return false;
    // a list of forwarded hosts is for the host guard to judge, every entry of it
    if (String(req.headers["x-forwarded-host"] ?? "").includes(",")) return false;
    const { protocol, host } = requestOrigin(req, opts.trust);
    if (!host) return false;
    const page = cache.get(`${protocol}://${host}${url}`);
    if (!page) return false;
    const block = headerBlock(page, protocol === "https");
    if (notModified(req.headers["if-none-match"], page.etag)) {
      for (let i = 0; i < block.length; i += 2) if (block[i]!.toLowerCase() !== "content-type") res.setHeader(block[i]!, block[i + 1]!);
      res.statusCode = 304;
      res.end();
    } else {
      const gzip = acceptsGzip(req) ? page.gzip : undefined;
      const body = gzip ?? page.body;
      const length = ["Content-Length", String(body.length)];
      res.writeHead(page.status, gzip ? [...block, ...length, "Content-Encoding", "gzip"] : [...block, ...length]);
      if (req.method === "HEAD") res.end();
      else res.end(body);
    }
    opts.log(req, res.statusCode, startedAt);
    return true;
  };
}

const acceptsGzip = (req: IncomingMessage) => /\bgzip\b/i.test(req.headers["accept-encoding"] ?? "");

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
export function sendCachedBody(req: IncomingMessage, res: ServerResponse, page: { body: Buffer; gzip?: Buffer }) {
  if (notModified(req.headers["if-none-match"], String(res.getHeader("ETag") ?? ""))) {
    res.removeHeader("Content-Type");
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader("Vary", "Accept-Encoding");
  const gzip = page.gzip && acceptsGzip(req) ? page.gzip : undefined;
  const body = gzip ?? page.body;
  // an encoded response is passed over by the compression middleware
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}
