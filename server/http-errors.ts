import type { Request, Response } from "express";

/**
 * Refusals the host itself answers, before a route runs: a malformed or hostile request is a
 * 4xx with one clear sentence, never a 500. API paths answer in the API's error shape
 * (`{"error":{"code","message"}}`), pages in plain text.
 */
export const HOST_ERRORS = {
  "request.invalid": { status: 400, message: "The request is not valid." },
  "request.bad_host": { status: 400, message: "The request's Host header is missing or not valid." },
  "request.bad_url": { status: 400, message: "The address contains characters that are not allowed." },
  "request.bad_body": { status: 400, message: "The form data could not be read. Please reload the page and try again." },
  "request.cross_site": {
    status: 403,
    message: "This request came from another website, so it was refused. Please use the form on our own page.",
  },
  "request.method_not_allowed": { status: 405, message: "This method is not allowed here." },
  "request.too_large": { status: 413, message: "The request is too large. Please shorten your message and try again." },
  "request.unsupported_type": { status: 415, message: "This kind of request body is not accepted here. Please send the form from our page." },
} as const satisfies Record<string, { status: number; message: string }>;

export type HostErrorCode = keyof typeof HOST_ERRORS;

export function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/");
}

export function refuse(
  req: Request,
  res: Response,
  code: HostErrorCode,
  opts: { message?: string; headers?: Record<string, string>; closeConnection?: boolean } = {},
): void {
  const { status, message: fallback } = HOST_ERRORS[code];
  const message = opts.message ?? fallback;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set("cache-control", "no-store");
  for (const [k, v] of Object.entries(opts.headers ?? {})) res.set(k, v);
  // an unread upload would otherwise keep streaming into a connection we are done with
  if (opts.closeConnection) res.set("connection", "close");
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
