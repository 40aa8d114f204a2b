import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Readable, type Transform } from "node:stream";
import type { Logger } from "pino";
import { EngineError, isEngineError } from "../errors.ts";
import { isBlockedAddress, unbracket } from "./address-guard.ts";
import { createGuardedLookup, type ResolveHost } from "./guarded-lookup.ts";
import { applyHostMap, parseHostMap, type HostMap } from "./host-map.ts";
import { createHostSlots, type HostSlots } from "./host-slots.ts";
import { bodyToBuffer, decoderFor, sizeCap, toHeaders } from "./outbound-body.ts";

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
}

/** OUTBOUND_MAX_CONNECTIONS_PER_HOST's default (decision 021) */
export const DEFAULT_MAX_CONNECTIONS_PER_HOST = 64;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const RETRYABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
]);
const TEXTUAL = /^(application\/(json|xml|.*\+json|.*\+xml|vnd\.apple\.mpegurl|x-mpegurl|dash\+xml|javascript)|text\/)/i;

const defaultResolve: ResolveHost = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function abortError(signal: AbortSignal | null | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException("This operation was aborted", "AbortError");
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === "AbortError";
}

interface Attempt {
  method: string;
  headers: Headers;
  body: Buffer | null;
  /**
   * counts against the per-host connection cap: media bytes through `open()` (ranges, segments,
   * images), whose readers always finish or destroy the body. `fetch()` (API calls, manifests) is
   * not counted: a Response body a caller never reads must not hold a slot of its host forever.
   */
  capped: boolean;
}

export function createOutbound(opts: OutboundOptions): Outbound {
  const hostMap = typeof opts.hostMap === "string" || opts.hostMap === undefined ? parseHostMap(opts.hostMap) : opts.hostMap;
  const resolve = opts.resolve ?? defaultResolve;
  const maxRedirects = opts.maxRedirects ?? 5;
  const defaultRetries = opts.retries ?? 2;
  const retryDelayMs = opts.retryDelayMs ?? 250;
  const metadataMaxBytes = opts.metadataMaxBytes ?? 32 * 1024 * 1024;
  const userAgent = opts.userAgent ?? "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
  const log = opts.logger;
  const slots = typeof opts.maxConnectionsPerHost === "object" ? opts.maxConnectionsPerHost : createHostSlots(opts.maxConnectionsPerHost ?? DEFAULT_MAX_CONNECTIONS_PER_HOST);

  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
    // Guarded sockets get their own pools: a pooled socket's address was checked when it connected.
    guardedHttp: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    guardedHttps: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };

  const guardedLookup = createGuardedLookup(resolve);

  /**
   * One HTTP exchange under the host's connection cap: the slot is held until the response body
   * is finished (or the request fails), because that is how long the connection is busy.
   */
  async function exchange(
    target: URL,
    hop: { guarded: boolean; originalHost: string | null },
    attempt: Attempt,
    init: OutboundInit,
    timeoutMs: number,
  ): Promise<IncomingMessage> {
    if (!attempt.capped) return exchangeOnce(target, hop, attempt, timeoutMs, init.signal);
    const release = await slots.acquire(target.host, { signal: init.signal, urgent: init.urgent });
    try {
      const res = await exchangeOnce(target, hop, attempt, timeoutMs, init.signal);
      if (res.closed || res.destroyed) release();
      else res.once("close", release);
      return res;
    } catch (err) {
      release();
      throw err;
    }
  }

  /** One HTTP exchange (no redirects, no retries). */
  function exchangeOnce(
    target: URL,
    hop: { guarded: boolean; originalHost: string | null },
    attempt: Attempt,
    timeoutMs: number,
    signal: AbortSignal | null | undefined,
  ): Promise<IncomingMessage> {
    return new Promise((resolvePromise, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const isHttps = target.protocol === "https:";
      const headers: Record<string, string> = {};
      attempt.headers.forEach((value, key) => {
        headers[key] = value;
      });
      if (!headers["user-agent"]) headers["user-agent"] = userAgent;
      if (hop.originalHost) headers["x-forwarded-host"] = hop.originalHost;
      if (attempt.body) headers["content-length"] = String(attempt.body.length);
      const request = (isHttps ? https : http).request({
        protocol: target.protocol,
        host: unbracket(target.hostname),
        port: target.port || (isHttps ? 443 : 80),
        path: `${target.pathname}${target.search}`,
        method: attempt.method,
        headers,
        agent: hop.guarded ? (isHttps ? agents.guardedHttps : agents.guardedHttp) : isHttps ? agents.https : agents.http,
        lookup: hop.guarded ? guardedLookup : undefined,
      });
      let settled = false;
      const timer = setTimeout(() => {
        request.destroy(new EngineError("upstream.timeout", { detail: `no response from ${target.host} in ${timeoutMs} ms` }));
      }, timeoutMs);
      const onAbort = () => request.destroy(abortError(signal));
      signal?.addEventListener("abort", onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      request.on("response", (res) => {
        settled = true;
        clearTimeout(timer);
        // While the body streams: an idle socket is a timeout, an abort tears the body down.
        const socket = res.socket;
        const onIdle = () => {
          res.destroy(new EngineError("upstream.timeout", { detail: `${target.host} stalled for ${timeoutMs} ms` }));
        };
        socket?.setTimeout(timeoutMs);
        socket?.on("timeout", onIdle);
        signal?.removeEventListener("abort", onAbort);
        const onBodyAbort = () => res.destroy(abortError(signal));
        signal?.addEventListener("abort", onBodyAbort, { once: true });
        res.once("close", () => {
          socket?.removeListener("timeout", onIdle);
          socket?.setTimeout(0);
          signal?.removeEventListener("abort", onBodyAbort);
        });
        resolvePromise(res);
      });
      request.on("error", (err) => {
        cleanup();
        if (!settled) reject(err);
      });
      request.end(attempt.body ?? undefined);
    });
  }

  function classify(err: unknown, target: URL): Error {
    if (isEngineError(err) || isAbort(err)) return err as Error;
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    return new EngineError("upstream.fetch_failed", { detail: `${target.host}: ${code ?? String(err)}`, cause: err });
  }

  function retryable(err: Error): boolean {
    if (isAbort(err)) return false;
    if (isEngineError(err)) {
      if (err.code === "upstream.timeout") return true;
      if (err.code !== "upstream.fetch_failed") return false;
      const code = (err.cause as NodeJS.ErrnoException | undefined)?.code;
      return code !== undefined && RETRYABLE_CODES.has(code);
    }
    return false;
  }

  function sleep(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
    return new Promise((resolveSleep, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const t = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolveSleep();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(abortError(signal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Follows redirects by hand so every hop is mapped and checked like the first. */
  async function followRedirects(
    start: URL,
    first: Attempt,
    init: OutboundInit,
    timeoutMs: number,
  ): Promise<{ res: IncomingMessage; url: URL; redirected: boolean }> {
    let url = start;
    let attempt = first;
    const mode = init.redirect ?? "follow";
    for (let hops = 0; ; hops++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new EngineError("link.unsupported", { detail: `protocol ${url.protocol}` });
      }
      const mapped = applyHostMap(hostMap, url);
      let target = url;
      let guarded = false;
      if (mapped) {
        target = mapped;
      } else {
        const trusted = hops === 0 && init.trusted === true;
        if (!trusted && !opts.allowPrivate) {
          const host = unbracket(url.hostname);
          if (isIP(host)) {
            if (isBlockedAddress(host)) throw new EngineError("link.blocked_address", { detail: `${host} is not a public address` });
          } else {
            guarded = true;
          }
        }
      }
      let res: IncomingMessage;
      try {
        res = await exchange(target, { guarded, originalHost: mapped ? url.host : null }, attempt, init, timeoutMs);
      } catch (err) {
        throw classify(err, url);
      }
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (!REDIRECTS.has(status) || !location || mode === "manual") {
        return { res, url, redirected: hops > 0 };
      }
      res.resume();
      if (mode === "error") throw new EngineError("upstream.fetch_failed", { detail: `unexpected redirect from ${url.host}` });
      if (hops >= maxRedirects) throw new EngineError("upstream.fetch_failed", { detail: `more than ${maxRedirects} redirects` });
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

  async function openRaw(input: string | URL, init: OutboundInit, attempt: Attempt): Promise<OutboundResponse> {
    let start: URL;
    try {
      start = new URL(input);
    } catch (cause) {
      throw new EngineError("link.unsupported", { detail: `not a URL: ${String(input).slice(0, 200)}`, cause });
    }
    const timeoutMs = init.timeoutMs ?? opts.timeoutMs;
    const retries = init.retries ?? defaultRetries;
    for (let n = 0; ; n++) {
      let result: { res: IncomingMessage; url: URL; redirected: boolean };
      try {
        result = await followRedirects(start, attempt, init, timeoutMs);
      } catch (err) {
        const e = err as Error;
        if (n < retries && retryable(e)) {
          log.debug({ url: start.host, attempt: n + 1, err: e.message }, "outbound retry after error");
          await sleep(backoff(n), init.signal);
          continue;
        }
        throw e;
      }
      const { res, url, redirected } = result;
      const status = res.statusCode ?? 0;
      if (status >= 500 && n < retries) {
        res.resume();
        log.debug({ url: url.host, status, attempt: n + 1 }, "outbound retry after server error");
        await sleep(backoff(n), init.signal);
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

  function backoff(n: number): number {
    const base = retryDelayMs * 2 ** n;
    return Math.min(base + Math.random() * base * 0.5, 10_000);
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
      for (const agent of Object.values(agents)) agent.destroy();
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
