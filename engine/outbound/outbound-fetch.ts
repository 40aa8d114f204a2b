import { Readable, type Transform } from "node:stream";
import type { Logger } from "pino";
import { EngineError } from "../errors.ts";
import type { EgressPool, EgressRef } from "./egress.ts";
import { defaultResolveHost, type ResolveHost } from "./guarded-lookup.ts";
import { parseHostMap, type HostMap } from "./host-map.ts";
import { createHostSlots, type HostSlots } from "./host-slots.ts";
import { createHttpExchange, type ExchangeAttempt, type ExchangeHop, type ExchangeResponse } from "./http-exchange.ts";
import { bodyToBuffer, decoderFor, sizeCap, toHeaders } from "./outbound-body.ts";
import { isRetryableOutbound, retryBackoff, sleepUnlessAborted } from "./outbound-errors.ts";
import { followRedirects, type RedirectPolicy } from "./redirects.ts";
import type { ScopedCookie } from "./upstream-request.ts";

/**
 * The one door for every byte leaving the server (DESIGN §6): host map, SSRF guard after DNS and
 * after every redirect, connection to the exact address that was checked (the check runs inside
 * the socket's own lookup, so DNS cannot change its answer between check and connect), timeouts,
 * retries with backoff, size caps for metadata. Built on node:http so the readers of the stream
 * runtime get Node streams without a web-stream round trip; `fetch` wraps it as a web Response
 * for youtubei.js and the source adapters.
 */

export interface OutboundInit extends RequestInit {
  /** per attempt: until response headers, then as the idle limit while reading the body */
  timeoutMs?: number;
  /** retries with backoff on network errors / 5xx (not on 4xx) */
  retries?: number;
  /** size cap for metadata bodies (JSON/manifests): the body is read up front; beyond → upstream.too_large */
  maxBytes?: number;
  /** operator-configured destination (API base URLs): skip the address check for the first hop */
  trusted?: boolean;
  /**
   * a consumer waits on this request right now (the head of a download): it goes before
   * speculative requests when the host's connection cap is reached
   */
  urgent?: boolean;
  /** cookies sent to each hop their scope matches, redirects included (upstream-request.ts) */
  cookies?: readonly ScopedCookie[];
  /** the way out this request takes (egress.ts): the one its media was resolved on; absent = this host's own address */
  egress?: EgressRef;
}

export type OutboundFetch = (url: string | URL | Request, init?: OutboundInit) => Promise<Response>;

/** A response whose body is a Node stream (used by the stream runtime's readers). */
export interface OutboundResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** final URL (as the user's link named it, before host mapping) */
  url: string;
  redirected: boolean;
  body: Readable;
}

export type OutboundOpen = (url: string | URL, init?: OutboundInit) => Promise<OutboundResponse>;

export interface Outbound {
  fetch: OutboundFetch;
  open: OutboundOpen;
  /** closes pooled keep-alive sockets */
  close(): void;
}

/** `fetch` and `open` whose requests go out by `egress` unless they name their own. */
export function viaEgress(door: Pick<Outbound, "fetch" | "open">, egress: EgressRef | undefined): Pick<Outbound, "fetch" | "open"> {
  if (!egress) return door;
  return {
    fetch: (url, init = {}) => door.fetch(url, init.egress ? init : { ...init, egress }),
    open: (url, init = {}) => door.open(url, init.egress ? init : { ...init, egress }),
  };
}

export type { ResolveHost };

export interface OutboundOptions {
  hostMap?: HostMap | string;
  allowPrivate: boolean;
  timeoutMs: number;
  logger: Logger;
  /** DNS resolution, injectable for tests (all addresses of a name) */
  resolve?: ResolveHost;
  /** default retries (2) */
  retries?: number;
  /** first backoff delay in ms (doubles per retry, with jitter) */
  retryDelayMs?: number;
  maxRedirects?: number;
  /** cap applied to textual bodies (JSON, XML, playlists, text) when no maxBytes is given */
  metadataMaxBytes?: number;
  /** user agent when the caller sets none */
  userAgent?: string;
  /**
   * connections open at once to one host, across every download (OUTBOUND_MAX_CONNECTIONS_PER_HOST);
   * 0 = no cap; default 64. Or a shared HostSlots, so several doors count together.
   */
  maxConnectionsPerHost?: number | HostSlots;
  /** the egress pool a request's `egress` is looked up in (absent: every request leaves from this host's own address) */
  egress?: EgressPool;
}

/** OUTBOUND_MAX_CONNECTIONS_PER_HOST's default (decision 021) */
export const DEFAULT_MAX_CONNECTIONS_PER_HOST = 64;

const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const TEXTUAL = /^(application\/(json|xml|.*\+json|.*\+xml|vnd\.apple\.mpegurl|x-mpegurl|dash\+xml|javascript)|text\/)/i;

/**
 * The door, assembled from its units: `http-exchange.ts` (one exchange to a checked address,
 * timeouts, aborts), `host-slots.ts` (the per-host connection cap), `redirects.ts` (every hop
 * mapped and checked), `outbound-errors.ts` (what is retried, and when). What stays here: retries
 * around the redirect chain, body decoding and size caps, and the two faces (`open`, `fetch`).
 */
export function createOutbound(opts: OutboundOptions): Outbound {
  const hostMap = typeof opts.hostMap === "string" || opts.hostMap === undefined ? parseHostMap(opts.hostMap) : opts.hostMap;
  const defaultRetries = opts.retries ?? 2;
  const retryDelayMs = opts.retryDelayMs ?? 250;
  const metadataMaxBytes = opts.metadataMaxBytes ?? 32 * 1024 * 1024;
  const log = opts.logger;
  const slots = typeof opts.maxConnectionsPerHost === "object" ? opts.maxConnectionsPerHost : createHostSlots(opts.maxConnectionsPerHost ?? DEFAULT_MAX_CONNECTIONS_PER_HOST);
  const connections = createHttpExchange({
    resolve: opts.resolve ?? defaultResolveHost,
    userAgent: opts.userAgent ?? "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  });

  /**
   * One exchange under the host's connection cap: the slot is held until the response body is
   * finished (or the request fails), because that is how long the connection is busy.
   */
  async function cappedExchange(target: URL, direct: ExchangeHop, attempt: ExchangeAttempt, init: OutboundInit, timeoutMs: number): Promise<ExchangeResponse> {
    const via = opts.egress?.dialer(init.egress) ?? null;
    const hop = via ? { ...direct, via } : direct;
    if (!attempt.capped) return connections.exchange(target, hop, attempt, timeoutMs, init.signal);
    const release = await slots.acquire(target.host, { signal: init.signal, urgent: init.urgent });
    try {
      const res = await connections.exchange(target, hop, attempt, timeoutMs, init.signal);
      if (res.closed || res.destroyed) release();
      else res.once("close", release);
      return res;
    } catch (err) {
      release();
      throw err;
    }
  }

  const redirectPolicy = (init: OutboundInit, timeoutMs: number): RedirectPolicy => ({
    hostMap,
    allowPrivate: opts.allowPrivate,
    maxRedirects: opts.maxRedirects ?? 5,
    exchange: (target, hop, attempt) => cappedExchange(target, hop, attempt, init, timeoutMs),
  });

  async function openRaw(input: string | URL, init: OutboundInit, attempt: ExchangeAttempt): Promise<OutboundResponse> {
    let start: URL;
    try {
      start = new URL(input);
    } catch (cause) {
      throw new EngineError("link.unsupported", { detail: `not a URL: ${String(input).slice(0, 200)}`, cause });
    }
    const timeoutMs = init.timeoutMs ?? opts.timeoutMs;
    const retries = init.retries ?? defaultRetries;
    for (let n = 0; ; n++) {
      let result: { res: ExchangeResponse; url: URL; redirected: boolean };
      try {
        result = await followRedirects(redirectPolicy(init, timeoutMs), start, attempt, init);
      } catch (err) {
        const e = err as Error;
        if (n < retries && isRetryableOutbound(e)) {
          log.debug({ url: start.host, attempt: n + 1, err: e.message }, "outbound retry after error");
          await sleepUnlessAborted(retryBackoff(n, retryDelayMs), init.signal);
          continue;
        }
        throw e;
      }
      const { res, url, redirected } = result;
      const status = res.statusCode ?? 0;
      if (status >= 500 && n < retries) {
        res.resume();
        log.debug({ url: url.host, status, attempt: n + 1 }, "outbound retry after server error");
        await sleepUnlessAborted(retryBackoff(n, retryDelayMs), init.signal);
        continue;
      }
      const headers = toHeaders(res.rawHeaders);
      let body: Readable = res;
      const noBody = attempt.method === "HEAD" || NULL_BODY.has(status);
      if (!noBody) {
        const decoder = decoderFor(headers.get("content-encoding"));
        if (decoder) {
          headers.delete("content-encoding");
          headers.delete("content-length");
          body = chain(body, decoder);
        }
        const cap = init.maxBytes ?? (TEXTUAL.test(headers.get("content-type") ?? "") ? metadataMaxBytes : undefined);
        if (cap !== undefined) {
          const declared = Number(headers.get("content-length"));
          if (Number.isFinite(declared) && declared > cap) {
            res.destroy();
            throw new EngineError("upstream.too_large", { detail: `${url.host} declared ${declared} bytes (cap ${cap})` });
          }
          body = chain(body, sizeCap(cap));
        }
      }
      return { status, statusText: res.statusMessage ?? "", headers, url: url.href, redirected, body };
    }
  }

  const open: OutboundOpen = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    const body = await bodyToBuffer(init.body, headers);
    return openRaw(input, init, { method: (init.method ?? "GET").toUpperCase(), headers, body, capped: true });
  };

  const fetchImpl: OutboundFetch = async (input, init = {}) => {
    let url: string | URL;
    let merged: OutboundInit = init;
    let headers: Headers;
    let body: Buffer | null;
    if (input instanceof Request) {
      url = input.url;
      headers = new Headers(input.headers);
      new Headers(init.headers).forEach((v, k) => headers.set(k, v));
      merged = { ...init, method: init.method ?? input.method, signal: init.signal ?? input.signal, redirect: init.redirect ?? input.redirect };
      body = init.body !== undefined ? await bodyToBuffer(init.body, headers) : input.body ? Buffer.from(await input.arrayBuffer()) : null;
    } else {
      url = input;
      headers = new Headers(init.headers);
      body = await bodyToBuffer(init.body, headers);
    }
    const method = (merged.method ?? "GET").toUpperCase();
    const out = await openRaw(url, merged, { method, headers, body, capped: false });
    let webBody: BodyInit | null = null;
    if (method !== "HEAD" && !NULL_BODY.has(out.status)) {
      if (merged.maxBytes !== undefined) {
        // Read capped metadata up front, so an oversized body fails here with a clear code.
        webBody = new Uint8Array(await readAll(out.body));
      } else {
        webBody = Readable.toWeb(out.body) as unknown as ReadableStream<Uint8Array>;
      }
    } else {
      out.body.resume();
    }
    if (out.status < 200 || out.status > 599) {
      out.body.destroy();
      throw new EngineError("upstream.fetch_failed", { detail: `unsupported status ${out.status}` });
    }
    const response = new Response(webBody, { status: out.status, statusText: out.statusText, headers: out.headers });
    Object.defineProperty(response, "url", { value: out.url });
    Object.defineProperty(response, "redirected", { value: out.redirected });
    return response;
  };

  return {
    fetch: fetchImpl,
    open,
    close() {
      connections.close();
    },
  };
}

/** The contract's constructor: just the fetch function. */
export function createOutboundFetch(opts: OutboundOptions): OutboundFetch {
  return createOutbound(opts).fetch;
}

/** pipes `from` into `to`, forwarding errors and teardown in both directions */
function chain(from: Readable, to: Transform): Readable {
  from.on("error", (err) => to.destroy(err));
  to.on("close", () => {
    if (!from.destroyed && !from.readableEnded) from.destroy();
  });
  from.pipe(to);
  return to;
}

export async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

export type { HostMap };
