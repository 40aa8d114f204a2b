/**
 * One HTTP exchange of the outbound door, no redirects and no retries: the request goes to the
 * exact address the guarded lookup checked (guarded hops get their own keep-alive pools, since a
 * pooled socket's address was checked when it connected); a timeout bounds the wait for headers
 * and then every idle stretch of the body; an abort tears down the request or the body.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { EngineError } from "../errors.ts";
import { unbracket } from "./address-guard.ts";
import { createConnectionPool } from "./connection-pool.ts";
import { createGuardedLookup, type ResolveHost } from "./guarded-lookup.ts";
import { createMediaExchange } from "./media-exchange.ts";
import { abortError } from "./outbound-errors.ts";

export interface ExchangeAttempt {
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

export interface ExchangeHop {
  /** connect through the guarded lookup (a public name, checked after DNS) */
  guarded: boolean;
  /** the host the link named, when the host map sent the request elsewhere */
  originalHost: string | null;
}

/** what an exchange answers: Node's IncomingMessage, or the media exchange's look-alike */
export type ExchangeResponse = Readable & {
  readonly statusCode?: number;
  readonly statusMessage?: string;
  readonly rawHeaders: string[];
  readonly headers: IncomingHttpHeaders;
};

export type Exchange = (target: URL, hop: ExchangeHop, attempt: ExchangeAttempt, timeoutMs: number, signal: AbortSignal | null | undefined) => Promise<ExchangeResponse>;

export interface HttpExchange {
  exchange: Exchange;
  /** closes pooled keep-alive sockets */
  close(): void;
}

export function createHttpExchange(opts: { resolve: ResolveHost; userAgent: string; maxSockets?: number }): HttpExchange {
  const maxSockets = opts.maxSockets ?? 256;
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets }),
    https: new https.Agent({ keepAlive: true, maxSockets }),
    guardedHttp: new http.Agent({ keepAlive: true, maxSockets }),
    guardedHttps: new https.Agent({ keepAlive: true, maxSockets }),
  };
  const guardedLookup = createGuardedLookup(opts.resolve);
  const pool = createConnectionPool({ guardedLookup });
  const mediaExchange = createMediaExchange({ pool, userAgent: opts.userAgent });

  const exchange: Exchange = (target, hop, attempt, timeoutMs, signal) => {
    // media bytes (open() without a request body) take the copy-free path
    if (attempt.capped && attempt.body === null && (attempt.method === "GET" || attempt.method === "HEAD")) {
      return mediaExchange(target, { method: attempt.method, headers: attempt.headers, guarded: hop.guarded, originalHost: hop.originalHost }, timeoutMs, signal);
    }
    return nodeExchange(target, hop, attempt, timeoutMs, signal);
  };

  const nodeExchange = (target: URL, hop: ExchangeHop, attempt: ExchangeAttempt, timeoutMs: number, signal: AbortSignal | null | undefined): Promise<IncomingMessage> =>
    new Promise((resolvePromise, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const isHttps = target.protocol === "https:";
      const headers: Record<string, string> = {};
      attempt.headers.forEach((value, key) => {
        headers[key] = value;
      });
      if (!headers["user-agent"]) headers["user-agent"] = opts.userAgent;
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

  return {
    exchange,
    close() {
      for (const agent of Object.values(agents)) agent.destroy();
      pool.close();
    },
  };
}
