/**
 * The media bytes' exchange: a GET or HEAD without a request body (ranges, segments, images,
 * what `open()` fetches) over a keep-alive connection of our own, its response head parsed
 * strictly (response-head.ts) and its body handed on as views of the socket's reads. Node's HTTP
 * client copies every body piece into a new buffer; on Node 24 that copy and the collections it
 * causes were most of a relayed byte's CPU (docs/decisions/048-media-bytes-without-a-copy.md).
 * Everything else (API calls, manifests, requests with bodies) keeps Node's client.
 *
 * The same contract as http-exchange.ts: one exchange to the address the guarded lookup checked,
 * no redirects or retries (except a request on a pooled connection the peer had already closed,
 * sent again once on a new one), a timeout for the head and for every idle stretch of the body,
 * an abort that tears the exchange down.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Socket } from "node:net";
import { Readable } from "node:stream";
import { EngineError } from "../errors.ts";
import { unbracket } from "./address-guard.ts";
import { ChunkedBody } from "./chunked-body.ts";
import type { ConnectionPool, Destination } from "./connection-pool.ts";
import type { EgressDialer } from "./egress.ts";
import { abortError } from "./outbound-errors.ts";
import { lend, readsRecycled, setSink } from "./read-buffers.ts";
import { bodyFraming, type BodyFraming, headEnd, keepsAlive, MAX_HEAD_BYTES, parseResponseHead, type ResponseHead, ResponseHeadError } from "./response-head.ts";

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A response of the media exchange: a Readable body with IncomingMessage's head fields. */
export class MediaResponse extends Readable {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly httpVersion: string;
  readonly rawHeaders: string[];
  readonly headers: IncomingHttpHeaders;
  /** set by the exchange: resumes the socket when the consumer wants more */
  onRead: () => void = () => undefined;
  /** set by the exchange: lets the socket go when the body is destroyed before its end */
  onDestroy: (err: Error | null) => void = () => undefined;

  constructor(head: ResponseHead) {
    super({ highWaterMark: 1024 * 1024 });
    this.statusCode = head.statusCode;
    this.statusMessage = head.statusMessage;
    this.httpVersion = head.httpVersion;
    this.rawHeaders = head.rawHeaders;
    this.headers = head.headers;
  }

  override _read(): void {
    this.onRead();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.onDestroy(err);
    callback(err);
  }
}

export interface MediaRequest {
  method: "GET" | "HEAD";
  headers: Headers;
  /** connect through the guarded lookup */
  guarded: boolean;
  /** the host the link named, when the host map sent the request elsewhere */
  originalHost: string | null;
  /** the egress to connect through (null: this host's own address) */
  via?: EgressDialer | null;
}

function requestHead(target: URL, req: MediaRequest, userAgent: string): Buffer {
  const fields: Array<[string, string]> = [];
  req.headers.forEach((value, name) => {
    if (name !== "host" && name !== "connection" && name !== "content-length" && name !== "transfer-encoding") fields.push([name, value]);
  });
  if (!req.headers.has("user-agent")) fields.push(["user-agent", userAgent]);
  if (req.originalHost) fields.push(["x-forwarded-host", req.originalHost]);
  const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`];
  for (const [name, value] of fields) {
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) throw Object.assign(new TypeError(`invalid request header ${name}`), { code: "ERR_INVALID_CHAR" });
    lines.push(`${name}: ${value}`);
  }
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
}

/** the peer closed a pooled connection before answering: safe to send again on a new one */
class StaleConnection extends Error {
  readonly code = "ECONNRESET";
}

export function createMediaExchange(opts: { pool: ConnectionPool; userAgent: string }) {
  return async function mediaExchange(target: URL, req: MediaRequest, timeoutMs: number, signal: AbortSignal | null | undefined): Promise<MediaResponse> {
    if (signal?.aborted) throw abortError(signal);
    const secure = target.protocol === "https:";
    const to: Destination = { secure, host: unbracket(target.hostname), port: Number(target.port) || (secure ? 443 : 80), guarded: req.guarded, via: req.via ?? null };
    const head = requestHead(target, req, opts.userAgent);
    const pooled = opts.pool.take(to);
    if (pooled) {
      try {
        return await exchangeOn(pooled, true);
      } catch (err) {
        if (!(err instanceof StaleConnection)) throw err;
      }
    }
    return exchangeOn(await opts.pool.connect(to, timeoutMs, signal), false);

    function exchangeOn(socket: Socket, reused: boolean): Promise<MediaResponse> {
      return new Promise((resolve, reject) => {
        let received: Buffer | null = null;
        let response: MediaResponse | null = null;
        let framing: BodyFraming = { kind: "none" };
        let chunked: ChunkedBody | null = null;
        let remaining = 0;
        let finished = false;

        const fail = (err: Error) => {
          detach();
          socket.destroy();
          if (response) response.destroy(err);
          else reject(err);
        };
        const headTimer = setTimeout(() => fail(new EngineError("upstream.timeout", { detail: `no response from ${target.host} in ${timeoutMs} ms` })), timeoutMs);
        const onAbort = () => fail(abortError(signal));
        const onBodyAbort = () => response?.destroy(abortError(signal));
        const onTimeout = () => fail(new EngineError("upstream.timeout", { detail: `${target.host} stalled for ${timeoutMs} ms` }));
        const onError = (err: Error) => fail(err);
        const onEnd = () => {
          if (response && framing.kind === "close") return finish(false);
          if (!response && reused && received === null) return fail(new StaleConnection("pooled connection closed before answering"));
          fail(Object.assign(new Error(response ? "upstream closed the connection" : "socket hang up"), { code: "ECONNRESET" }));
        };
        const onClose = () => {
          if (!finished) onEnd();
        };
        const detach = () => {
          clearTimeout(headTimer);
          signal?.removeEventListener("abort", onAbort);
          signal?.removeEventListener("abort", onBodyAbort);
          setSink(socket, null);
          socket.off("end", onEnd);
          socket.off("close", onClose);
          socket.off("error", onError);
          socket.off("timeout", onTimeout);
          socket.setTimeout(0);
        };
        /** the body has ended: the socket goes back to the pool when it can carry another request */
        const finish = (reusable: boolean) => {
          if (finished) return;
          finished = true;
          detach();
          if (reusable && response && keepsAlive(response, framing)) opts.pool.release(to, socket);
          else socket.destroy();
          response?.push(null);
        };
        const deliver = (piece: Buffer) => {
          if (piece.length === 0) return;
          lend(piece);
          if (!response!.push(piece)) socket.pause();
        };
        const onBody = (buf: Buffer) => {
          if (framing.kind === "close") return deliver(buf);
          if (framing.kind === "length") {
            const n = Math.min(remaining, buf.length);
            remaining -= n;
            deliver(n === buf.length ? buf : buf.subarray(0, n));
            // bytes past the stated length: the response is whole, the connection is not reusable
            if (remaining === 0) finish(n === buf.length);
            return;
          }
          const used = chunked!.feed(buf, deliver);
          if (chunked!.done) finish(used === buf.length);
        };
        const onData = (buf: Buffer) => {
          if (response) {
            try {
              onBody(buf);
            } catch (err) {
              fail(err as Error);
            }
            return;
          }
          // a recycled read's buffer is reused once this returns: the head's bytes are copied
          received = received ? Buffer.concat([received, buf]) : readsRecycled(socket) ? Buffer.from(buf) : buf;
          try {
            // a 1xx (100 Continue, 103 Early Hints) is followed by the real head
            for (;;) {
              const end = headEnd(received);
              if (end === -1) {
                if (received.length > MAX_HEAD_BYTES) throw new ResponseHeadError(`response head over ${MAX_HEAD_BYTES} bytes`);
                return;
              }
              if (end > MAX_HEAD_BYTES) throw new ResponseHeadError(`response head over ${MAX_HEAD_BYTES} bytes`);
              const parsed = parseResponseHead(received.toString("latin1", 0, end - 4));
              received = received.subarray(end);
              if (parsed.statusCode === 101) throw new ResponseHeadError("unexpected protocol switch");
              if (parsed.statusCode >= 100 && parsed.statusCode < 200) continue;
              startBody(parsed);
              return;
            }
          } catch (err) {
            fail(err as Error);
          }
        };
        const startBody = (parsed: ResponseHead) => {
          clearTimeout(headTimer);
          framing = bodyFraming(req.method, parsed);
          const res = new MediaResponse(parsed);
          response = res;
          // the bytes that came with the head wait for the first read: a body that fails at once
          // then fails a consumer that is listening
          let rest: Buffer | null = received!;
          received = null;
          res.onRead = () => {
            if (finished) return;
            if (rest) {
              const first = rest;
              rest = null;
              try {
                if (first.length > 0) onBody(first);
              } catch (err) {
                fail(err as Error);
                return;
              }
            }
            if (!finished && socket.isPaused()) socket.resume();
          };
          res.onDestroy = () => {
            if (finished) return;
            finished = true;
            detach();
            socket.destroy();
          };
          signal?.removeEventListener("abort", onAbort);
          signal?.addEventListener("abort", onBodyAbort, { once: true });
          socket.setTimeout(timeoutMs);
          if (framing.kind === "length") remaining = framing.length;
          if (framing.kind === "chunked") chunked = new ChunkedBody();
          if (framing.kind === "none" || (framing.kind === "length" && remaining === 0)) finish(rest.length === 0);
          else socket.pause();
          resolve(res);
        };

        signal?.addEventListener("abort", onAbort, { once: true });
        setSink(socket, onData);
        socket.on("end", onEnd);
        socket.on("close", onClose);
        socket.on("error", onError);
        socket.on("timeout", onTimeout);
        if (socket.isPaused()) socket.resume();
        socket.write(head);
      });
    }
  };
}
