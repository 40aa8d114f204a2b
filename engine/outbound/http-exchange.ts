/**
 * One HTTP exchange of the outbound door, no redirects and no retries: the request goes to the
 * exact address the guarded lookup checked (guarded hops get their own keep-alive pools, since a
 * pooled socket's address was checked when it connected); a timeout bounds the wait for headers
 * and then every idle stretch of the body; an abort tears down the request or the body.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type { Duplex, Readable } from "node:stream";
import tls from "node:tls";
import { EngineError } from "../errors.ts";
import { unbracket } from "./address-guard.ts";
import { awaitConnect } from "./await-connect.ts";
import { createConnectionPool } from "./connection-pool.ts";
import type { EgressDialer } from "./egress.ts";
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
  /** the egress to connect through (absent or null: this host's own address) */
  via?: EgressDialer | null;
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

/** A socket to `host` the egress's way, in TLS for https (certificates checked against the name). */
async function egressConnection(via: EgressDialer, secure: boolean, host: string, port: number, guarded: boolean, timeoutMs: number, signal: AbortSignal | null | undefined): Promise<Duplex> {
  const raw = await via.dial({ host, port, guarded }, timeoutMs, signal);
  if (!secure) return raw;
  const socket = tls.connect({ socket: raw, servername: isIP(host) ? undefined : host, ALPNProtocols: ["http/1.1"] });
  try {
    return await awaitConnect(socket, "secureConnect", host, timeoutMs, signal);
  } catch (err) {
    raw.destroy();
    throw err;
  }
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
      return mediaExchange(target, { method: attempt.method, headers: attempt.headers, guarded: hop.guarded, originalHost: hop.originalHost, via: hop.via }, timeoutMs, signal);
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
      const host = unbracket(target.hostname);
      const port = Number(target.port) || (isHttps ? 443 : 80);
      const via = hop.via;
      const request = (isHttps ? https : http).request({
        protocol: target.protocol,
        host,
        port,
        path: `${target.pathname}${target.search}`,
        method: attempt.method,
        headers,
        // through an egress: a connection of its own per request (API calls and manifests are few;
        // the media bytes keep theirs in the pool), its TLS inside the egress's tunnel
        ...(via
          ? {
              createConnection: (_: unknown, done: (err: Error | null, socket: Duplex) => void) => {
                egressConnection(via, isHttps, host, port, hop.guarded, timeoutMs, signal).then(
                  (socket) => done(null, socket),
                  (err: unknown) => done(err as Error, undefined as unknown as Duplex),
                );
                return undefined;
              },
            }
          : { agent: hop.guarded ? (isHttps ? agents.guardedHttps : agents.guardedHttp) : isHttps ? agents.https : agents.http, lookup: hop.guarded ? guardedLookup : undefined }),
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
