/**
 * What one upstream stream needs on its requests besides its URL: the headers its platform asks
 * for (a Referer, a User-Agent) and cookies, each sent only to the URLs its scope matches (RFC
 * 6265 §5.1.3 domain match, §5.1.4 path match, Secure, expiry). The door (redirects.ts) picks the
 * cookies again for every hop, so a redirect to a host outside a cookie's domain never carries it
 * (docs/decisions/052-upstream-headers-and-scoped-cookies.md).
 */
import { isIP } from "node:net";
import type { ScopedCookie, UpstreamRequest } from "../types.ts";
import type { OutboundFetch, OutboundInit, OutboundOpen } from "./outbound-fetch.ts";

export type { ScopedCookie, UpstreamRequest };

function domainMatches(cookie: ScopedCookie, host: string): boolean {
  if (host === cookie.domain) return true;
  // a domain cookie reaches the hosts under it; never an address, and never a host-only cookie
  return !cookie.hostOnly && isIP(host) === 0 && host.endsWith(`.${cookie.domain}`);
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

/** The Cookie header for a request to `url`: the cookies whose scope matches it, or null when none does. */
export function cookieHeaderFor(cookies: readonly ScopedCookie[], url: URL, nowMs: number): string | null {
  const host = url.hostname.toLowerCase().replace(/\.$/, "").replace(/^\[|\]$/g, "");
  const path = url.pathname || "/";
  const secure = url.protocol === "https:";
  const pairs = cookies
    .filter((c) => (c.expires === null || c.expires * 1000 > nowMs) && (secure || !c.secure) && domainMatches(c, host) && pathMatches(c.path, path))
    // RFC 6265 §5.4: longer paths first
    .sort((a, b) => b.path.length - a.path.length)
    .map((c) => `${c.name}=${c.value}`);
  return pairs.length > 0 ? pairs.join("; ") : null;
}

/**
 * The caller's init with the stream's headers under it (the caller's own, a Range, win), its
 * cookies, and the egress it was resolved on (its URLs may be bound to that address).
 */
function withRequest(init: OutboundInit, request: UpstreamRequest | undefined): OutboundInit {
  if (!request || (!request.headers && !request.cookies && !request.egress)) return init;
  const egress = request.egress ? { egress: request.egress } : {};
  if (!request.headers && !request.cookies) return { ...init, ...egress };
  const headers = new Headers(request.headers);
  new Headers(init.headers).forEach((value, name) => headers.set(name, value));
  return { ...init, headers, ...(request.cookies?.length ? { cookies: request.cookies } : {}), ...egress };
}

/**
 * `open` for the requests of one stream: each carries what `request()` says now (a re-resolve
 * replaces the stream, and with it its headers and cookies).
 */
export function openWithRequest(open: OutboundOpen, request: () => UpstreamRequest | undefined): OutboundOpen {
  return (url, init = {}) => open(url, withRequest(init, request()));
}

/** `fetch` for the requests of one stream (probes and manifests while its link resolves). */
export function fetchWithRequest(fetch: OutboundFetch, request: UpstreamRequest | undefined): OutboundFetch {
  if (!request) return fetch;
  return (url, init = {}) => fetch(url, withRequest(init, request));
}
