/**
 * Redirects followed by hand, so every hop is host-mapped and checked like the first: a literal
 * private address is refused before connecting, a name is connected through the guarded lookup,
 * credentials never follow to another origin (scoped cookies go to the hops their scope matches), and 303 (or 301/302 after a POST) becomes a GET.
 */
import { isIP } from "node:net";
import { EngineError } from "../errors.ts";
import { isBlockedAddress, unbracket } from "./address-guard.ts";
import { applyHostMap, type HostMap } from "./host-map.ts";
import type { ExchangeAttempt, ExchangeHop, ExchangeResponse } from "./http-exchange.ts";
import { classifyOutboundError } from "./outbound-errors.ts";
import { cookieHeaderFor, type ScopedCookie } from "./upstream-request.ts";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface RedirectPolicy {
  hostMap: HostMap;
  /** reach private addresses (tests, a self-hosted origin) */
  allowPrivate: boolean;
  maxRedirects: number;
  /** one exchange (under the host's connection cap) */
  exchange: (target: URL, hop: ExchangeHop, attempt: ExchangeAttempt) => Promise<ExchangeResponse>;
}

export interface RedirectRequest {
  redirect?: RequestRedirect;
  /** operator-configured destination: the first hop skips the address check */
  trusted?: boolean;
  /**
   * cookies a platform's media needs: each hop's Cookie header is made from those whose scope
   * matches that hop's URL (as the link names it, before host mapping), replacing any other
   */
  cookies?: readonly ScopedCookie[];
}

export async function followRedirects(
  policy: RedirectPolicy,
  start: URL,
  first: ExchangeAttempt,
  init: RedirectRequest,
): Promise<{ res: ExchangeResponse; url: URL; redirected: boolean }> {
  let url = start;
  let attempt = first;
  const mode = init.redirect ?? "follow";
  for (let hops = 0; ; hops++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new EngineError("link.unsupported", { detail: `protocol ${url.protocol}` });
    }
    const mapped = applyHostMap(policy.hostMap, url);
    let target = url;
    let guarded = false;
    if (mapped) {
      target = mapped;
    } else {
      const trusted = hops === 0 && init.trusted === true;
      if (!trusted && !policy.allowPrivate) {
        const host = unbracket(url.hostname);
        if (isIP(host)) {
          if (isBlockedAddress(host)) throw new EngineError("link.blocked_address", { detail: `${host} is not a public address` });
        } else {
          guarded = true;
        }
      }
    }
    if (init.cookies) {
      const headers = new Headers(attempt.headers);
      const cookie = cookieHeaderFor(init.cookies, url, Date.now());
      if (cookie) headers.set("cookie", cookie);
      else headers.delete("cookie");
      attempt = { ...attempt, headers };
    }
    let res: ExchangeResponse;
    try {
      res = await policy.exchange(target, { guarded, originalHost: mapped ? url.host : null }, attempt);
    } catch (err) {
      throw classifyOutboundError(err, url);
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (!REDIRECTS.has(status) || !location || mode === "manual") {
      return { res, url, redirected: hops > 0 };
    }
    res.resume();
    if (mode === "error") throw new EngineError("upstream.fetch_failed", { detail: `unexpected redirect from ${url.host}` });
    if (hops >= policy.maxRedirects) throw new EngineError("upstream.fetch_failed", { detail: `more than ${policy.maxRedirects} redirects` });
    let next: URL;
    try {
      next = new URL(location, url);
    } catch (cause) {
      throw new EngineError("upstream.fetch_failed", { detail: `bad redirect location ${location}`, cause });
    }
    const headers = new Headers(attempt.headers);
    if (next.origin !== url.origin) {
      // Credentials never follow a redirect to another origin.
      headers.delete("authorization");
      headers.delete("cookie");
    }
    if (status === 303 || ((status === 301 || status === 302) && attempt.method === "POST")) {
      headers.delete("content-type");
      attempt = { method: attempt.method === "HEAD" ? "HEAD" : "GET", headers, body: null, capped: attempt.capped };
    } else {
      attempt = { ...attempt, headers };
    }
    url = next;
  }
}
