import type { Request, RequestHandler, Response } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { writeReadableStreamToWritable } from "@react-router/node";

/**
 * Hands a page request to React Router. Like `@react-router/express`'s handler, except that a
 * POST's body comes from the bytes `pageBodyGuard` already read and checked (the socket is
 * never read twice or without a limit), and the URL is built from the checked Host header.
 */
export function createPageHandler(opts: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  getLoadContext: (req: Request, res: Response) => AppLoadContext;
}): RequestHandler {
  const handle = createRequestHandler(opts.build, opts.mode);
  return async (req, res, next) => {
    try {
      const request = toFetchRequest(req, res);
      const response = await handle(request, opts.getLoadContext(req, res));
      await send(res, response);
    } catch (err) {
      next(err);
    }
  };
}

function toFetchRequest(req: Request, res: Response): globalThis.Request {
  // concatenated, not resolved: a path such as `//` would otherwise be read as a host
  const url = new URL(`${req.protocol}://${req.host}${req.originalUrl}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const body = res.locals.body as Buffer | undefined;
  const init: RequestInit = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = body ? new Uint8Array(body) : new Uint8Array(0);
    // the body is already in memory; its exact length replaces what the client declared
    headers.delete("transfer-encoding");
    headers.set("content-length", String(body?.length ?? 0));
  }
  return new Request(url, init);
}

async function send(res: Response, response: globalThis.Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("content-type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (err) {
    if (res.destroyed || res.writableEnded) return;
    throw err;
  }
}
