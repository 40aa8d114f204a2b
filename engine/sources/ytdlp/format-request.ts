/**
 * What a yt-dlp format says its requests need, as an UpstreamRequest for our outbound fetch:
 * its `http_headers` through an allow-list, and its cookies each scoped to its own domain, path
 * and scheme (docs/decisions/052-upstream-headers-and-scoped-cookies.md).
 *
 * yt-dlp since 2023.07 gives the cookies in the format's `cookies` field, serialized by
 * YoutubeDL._calc_headers as `name=value; Domain=.d; Path=/; Secure; Expires=<epoch s>` per
 * cookie, joined by "; ", values that are not plain tokens double-quoted the way Python's
 * SimpleCookie quotes them. Older releases (2023.03, Debian's) put a `Cookie` header inside
 * `http_headers` instead, computed for the format's URL: those cookies go to that host only.
 */
import type { ScopedCookie, UpstreamRequest } from "../../types.ts";

/** headers a format may set on our requests (lower-case); the `sec-fetch-`, `sec-ch-ua` and `x-` families too */
const ALLOWED_HEADERS = new Set(["user-agent", "referer", "origin", "accept", "accept-language"]);
const ALLOWED_PREFIXES = ["sec-fetch-", "sec-ch-ua", "x-"];
/** `x-` headers that claim a client address or rewrite the request: never ours to send */
const REFUSED_X_HEADERS = /^x-(forwarded-.*|forwarded|real-ip|client-ip|originating-ip|remote-addr|host|http-method.*|original-url|rewrite-url)$/;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** one header line's value: visible ASCII, Latin-1 and tabs; no line breaks */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const MAX_HEADERS = 32;
const MAX_VALUE_CHARS = 4096;
const MAX_COOKIES = 64;

/** SimpleCookie's attribute names: a key among these belongs to the cookie before it */
const COOKIE_ATTRIBUTES = new Set(["expires", "path", "comment", "domain", "max-age", "secure", "httponly", "version", "samesite"]);
/** a cookie value as a Cookie header can carry it (RFC 6265 cookie-octets, plus the spaces and commas sites use) */
const COOKIE_VALUE = /^[\x20\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e,]*$/;
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function allowedHeader(name: string): boolean {
  if (ALLOWED_HEADERS.has(name)) return true;
  if (!ALLOWED_PREFIXES.some((p) => name.startsWith(p))) return false;
  return !REFUSED_X_HEADERS.test(name);
}

/** Python's SimpleCookie quoting undone: `"a\"b\073c"` → `a"b;c` */
function unquote(value: string): string {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return value;
  return value.slice(1, -1).replace(/\\(?:([0-3][0-7]{2})|(.))/g, (_m, octal: string | undefined, ch: string | undefined) => (octal ? String.fromCharCode(parseInt(octal, 8)) : ch!));
}

function expiryOf(value: string): number | null {
  if (/^\d+(\.\d+)?$/.test(value)) return Math.floor(Number(value));
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

function validCookie(c: ScopedCookie): boolean {
  return COOKIE_NAME.test(c.name) && COOKIE_VALUE.test(c.value) && c.value.length <= MAX_VALUE_CHARS && /^[a-z0-9.-]+$/.test(c.domain) && c.path.startsWith("/");
}

/**
 * yt-dlp's `cookies` field as scoped cookies. A cookie without a Domain is left out (yt-dlp
 * itself refuses such "unscoped" cookies); a Domain with a leading dot covers the hosts under
 * it, one without names its host only.
 */
export function parseYtdlpCookies(text: string): ScopedCookie[] {
  const cookies: ScopedCookie[] = [];
  let current: (Omit<ScopedCookie, "domain" | "hostOnly"> & { domain: string | null }) | null = null;
  const finish = () => {
    if (!current?.domain) return;
    const dotted = current.domain.startsWith(".");
    const cookie: ScopedCookie = { ...current, domain: current.domain.replace(/^\.+/, "").toLowerCase(), hostOnly: !dotted };
    if (validCookie(cookie)) cookies.push(cookie);
  };
  for (const piece of text.split(";")) {
    const eq = piece.indexOf("=");
    const key = (eq < 0 ? piece : piece.slice(0, eq)).trim();
    const value = eq < 0 ? "" : piece.slice(eq + 1).trim();
    if (!key) continue;
    const attribute = key.toLowerCase();
    if (COOKIE_ATTRIBUTES.has(attribute)) {
      if (!current) continue;
      if (attribute === "domain") current.domain = value || null;
      else if (attribute === "path") current.path = value || "/";
      else if (attribute === "secure") current.secure = true;
      else if (attribute === "expires") current.expires = value ? expiryOf(value) : null;
      continue;
    }
    if (eq < 0) continue; // a bare word that is not a flag
    finish();
    current = { name: key, value: unquote(value), domain: null, path: "/", secure: false, expires: null };
  }
  finish();
  return cookies.slice(0, MAX_COOKIES);
}

/** An old-style `Cookie` header (yt-dlp before 2023.07) as cookies for the host it was made for. */
export function headerCookies(header: string, url: URL): ScopedCookie[] {
  const host = url.hostname.toLowerCase();
  const secure = url.protocol === "https:";
  return header
    .split(";")
    .flatMap((pair) => {
      const eq = pair.indexOf("=");
      if (eq <= 0) return [];
      const cookie: ScopedCookie = { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), domain: host, hostOnly: true, path: "/", secure, expires: null };
      return validCookie(cookie) ? [cookie] : [];
    })
    .slice(0, MAX_COOKIES);
}

/**
 * The cookies of several formats as one jar, the first of each name, domain and path winning: what
 * yt-dlp's cookie jar would offer a file it lists outside its formats (a caption file), each
 * cookie still sent only where its scope matches.
 */
export function cookieJarOf(requests: ReadonlyArray<UpstreamRequest | undefined>): ScopedCookie[] {
  const jar = new Map<string, ScopedCookie>();
  for (const cookie of requests.flatMap((r) => r?.cookies ?? [])) {
    const key = `${cookie.name}\u0000${cookie.domain}\u0000${cookie.path}`;
    if (!jar.has(key)) jar.set(key, cookie);
  }
  return [...jar.values()].slice(0, MAX_COOKIES);
}

/**
 * The request a format needs: its allowed headers (lower-case names) and its cookies. `url` is
 * the address yt-dlp made an old-style Cookie header for. Undefined when the format needs nothing.
 */
export function requestOf(format: { http_headers?: Record<string, unknown> | null; cookies?: string | null }, url: URL | null): UpstreamRequest | undefined {
  const headers: Record<string, string> = {};
  const cookies: ScopedCookie[] = [];
  let count = 0;
  for (const [rawName, rawValue] of Object.entries(format.http_headers ?? {})) {
    if (typeof rawValue !== "string") continue;
    const name = rawName.trim().toLowerCase();
    const value = rawValue.trim();
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value) || value.length > MAX_VALUE_CHARS) continue;
    if (name === "cookie") {
      if (url) cookies.push(...headerCookies(value, url));
      continue;
    }
    if (!allowedHeader(name) || count >= MAX_HEADERS) continue;
    headers[name] = value;
    count++;
  }
  if (format.cookies) cookies.push(...parseYtdlpCookies(format.cookies));
  if (count === 0 && cookies.length === 0) return undefined;
  return { ...(count > 0 ? { headers } : {}), ...(cookies.length > 0 ? { cookies: cookies.slice(0, MAX_COOKIES) } : {}) };
}
