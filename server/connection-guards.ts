import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { TOO_MANY_REQUESTS } from "#common/error-catalogue.ts";

/**
 * Limits on what one client may hold open (issue 27 §12). Node's defaults let a client keep a
 * request open for 5 minutes by sending its body a byte at a time (requestTimeout 300 s, checked
 * every 30 s: a 408 after 330 s), and any number of such connections from one address.
 *
 * Node's request timeouts cover receiving a request (headers and body), never the response:
 * an hour-long download or a progress stream (Server-Sent Events) is not affected by them.
 */
export interface ConnectionLimits {
  /** the whole request line and headers */
  headersTimeoutMs: number;
  /** the whole request, body included (an upload of a few MB on a slow line fits) */
  requestTimeoutMs: number;
  /** a body must bring at least this many bytes in every `bodyWindowMs`, else it is cut */
  bodyMinBytes: number;
  bodyWindowMs: number;
  /** open connections per peer address; 0: no cap */
  maxConnectionsPerIp: number;
}

export const DEFAULT_CONNECTION_LIMITS: Omit<ConnectionLimits, "maxConnectionsPerIp"> = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  // about 100 bytes a second: far below any real connection, far above a trickle
  bodyMinBytes: 1024,
  bodyWindowMs: 10_000,
};

/** How often Node looks for requests past their timeout (its default, 30 s, is what made 300 s into 330). */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 2_000;

/** http.createServer options carrying the request timeouts. */
export function serverTimeoutOptions(limits: Pick<ConnectionLimits, "headersTimeoutMs" | "requestTimeoutMs">) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
  };
}

const TOO_MANY_CONNECTIONS =
  "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 10\r\nCache-Control: no-store\r\nConnection: close\r\n";
const TOO_MANY_BODY = TOO_MANY_REQUESTS;
const SLOW_BODY = "HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n";
const SLOW_BODY_TEXT = "The request took too long to arrive. Please try again.";

const answerAndClose = (socket: Socket, head: string, text: string) => {
  socket.end(`${head}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  // a client that never reads its answer is not waited for
  setTimeout(() => socket.destroy(), 1000).unref();
};

/**
 * The per-address cap and the body-progress watch, on a server made with serverTimeoutOptions.
 * `trustedProxy(address)`: a peer that is our reverse proxy carries many clients, so its
 * connections are not counted (nginx limits its clients itself; decision 036).
 */
export function guardConnections(server: Server, limits: ConnectionLimits, trustedProxy: (address: string | undefined) => boolean): void {
  const open = new Map<string, number>();
  if (limits.maxConnectionsPerIp > 0) {
    server.on("connection", (socket: Socket) => {
      const address = socket.remoteAddress;
      if (!address || trustedProxy(address)) return;
      const count = (open.get(address) ?? 0) + 1;
      open.set(address, count);
      socket.once("close", () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
      if (count > limits.maxConnectionsPerIp) answerAndClose(socket, TOO_MANY_CONNECTIONS, TOO_MANY_BODY);
    });
  }
  server.on("request", (req: IncomingMessage, res: ServerResponse) => watchBodyProgress(req, res, limits));
}

/** A request with a body that stalls (fewer than bodyMinBytes in a window) is answered 408 and closed. */
function watchBodyProgress(req: IncomingMessage, res: ServerResponse, limits: ConnectionLimits): void {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!(declared > 0) && !req.headers["transfer-encoding"]) return;
  const socket = req.socket;
  let last = socket.bytesRead;
  const timer = setInterval(() => {
    // answering already: the handler does not wait for the body (a long download must not be cut)
    if (res.headersSent) return stop();
    const now = socket.bytesRead;
    if (now - last >= limits.bodyMinBytes) {
      last = now;
      return;
    }
    stop();
    answerAndClose(socket, SLOW_BODY, SLOW_BODY_TEXT);
  }, limits.bodyWindowMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  // the body is in (or was refused and drained), or the exchange is over
  req.once("end", stop);
  req.once("close", stop);
  res.once("close", stop);
}
