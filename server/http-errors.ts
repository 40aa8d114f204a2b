import type { Request, Response } from "express";
import { defineErrors } from "#common/error-catalogue.ts";
import { ERRORS } from "#engine/errors.ts";

/**
 * Refusals the host itself answers, before a route runs: a malformed or hostile request is a
 * 4xx with one clear sentence, never a 500. API paths answer in the API's error shape
 * (`{"error":{"code","message"}}`), pages in plain text.
 */
export const HOST_ERRORS = defineErrors({
  "request.bad_host": { status: 400, message: "The request's Host header is missing or not valid." },
  "request.bad_url": { status: 400, message: "The address contains characters that are not allowed." },
  "request.bad_body": { status: 400, message: "The form data could not be read. Please reload the page and try again." },
  "request.cross_site": {
    status: 403,
    message: "This request came from another website, so it was refused. Please use the form on our own page.",
  },
  "request.not_found": { status: 404, message: "There is nothing at this address." },
  "request.method_not_allowed": { status: 405, message: "This method is not allowed here." },
  "request.too_large": { status: 413, message: "The request is too large. Please shorten your message and try again." },
  "request.unsupported_type": { status: 415, message: "This kind of request body is not accepted here. Please send the form from our page." },
});

/** What `refuse` answers: the host's own refusals and the engine's `request.invalid` (defined there). */
const REFUSALS = { ...HOST_ERRORS, "request.invalid": ERRORS["request.invalid"] };

export type HostErrorCode = keyof typeof REFUSALS;

export function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/");
}

export function refuse(
  req: Request,
  res: Response,
  code: HostErrorCode,
  opts: { message?: string; headers?: Record<string, string>; discardUpload?: boolean } = {},
): void {
  const { status, message: fallback } = REFUSALS[code];
  const message = opts.message ?? fallback;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set("cache-control", "no-store");
  for (const [k, v] of Object.entries(opts.headers ?? {})) res.set(k, v);
  if (opts.discardUpload) discardRestOfUpload(req);
  // originalUrl: inside the mounted API router, req.path is relative to /api/v1
  if (isApiPath(req.originalUrl.split("?")[0] ?? "")) res.json({ error: { code, message } });
  else res.type("text/plain; charset=utf-8").send(message);
}

/**
 * A body-parser or router error that is the client's fault (bad JSON, unsupported charset or
 * encoding, a bad percent-escape in a path parameter) carries a 4xx status; map it to ours.
 */
export function hostErrorOf(err: unknown): HostErrorCode | null {
  const e = err as { status?: unknown; statusCode?: unknown; type?: unknown } | null;
  const status = typeof e?.status === "number" ? e.status : typeof e?.statusCode === "number" ? e.statusCode : 0;
  if (status < 400 || status >= 500) return null;
  if (status === 413) return "request.too_large";
  if (status === 415) return "request.unsupported_type";
  if (err instanceof URIError) return "request.bad_url";
  return e?.type === "entity.parse.failed" ? "request.bad_body" : "request.invalid";
}

/** How much of a refused upload is read and thrown away before the connection is cut. */
export const DISCARD_LIMITS = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000, idleMs: 2_000 };

/**
 * A refused upload (413, 415) may still be streaming in. Closing the connection at once makes
 * the client's TCP stack reset it while it is still sending, and a reset throws away our answer
 * before the client reads it: the user sees "connection reset" instead of "too large". So the
 * rest is read and discarded (never buffered) for a bounded time and amount, like a web
 * server's lingering close; past either bound, or after 2 s of silence, the socket is closed.
 * When the connection is to close after the answer (the client sent `Connection: close`), Node
 * would destroy the socket as soon as the answer is written: here it only half-closes it (our
 * side is done) and the socket is destroyed once the client has finished sending or a bound is
 * reached. A keep-alive client that finishes within the bounds keeps its connection.
 */
export function discardRestOfUpload(req: Request, limits = DISCARD_LIMITS): void {
  if (req.complete || req.destroyed) return;
  const socket = req.socket;
  let seen = 0;
  let answered = false;
  const finish = (cutOff: boolean) => {
    clearTimeout(total);
    clearTimeout(idle);
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("close", onClose);
    Reflect.deleteProperty(socket, "destroySoon"); // back to the prototype's
    if ((cutOff && !req.complete) || answered) socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limits.maxBytes) finish(true);
    else idle.refresh();
  };
  const onEnd = () => finish(false);
  const onClose = () => finish(false);
  const total = setTimeout(() => finish(true), limits.maxMs);
  const idle = setTimeout(() => finish(true), limits.idleMs);
  // Node calls this when a "Connection: close" answer has been written
  socket.destroySoon = () => {
    answered = true;
    socket.end();
  };
  req.on("data", onData);
  req.once("end", onEnd);
  req.once("close", onClose);
  req.resume();
}
