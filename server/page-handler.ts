import type { Request, RequestHandler, Response } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { writeReadableStreamToWritable } from "@react-router/node";
import {
  etagOf,
  hasPerVisitorCookie,
  PAGE_CACHE_HEADER,
  pageCacheKey,
  pagePathOf,
  PRIVATE_PAGE_CACHE_CONTROL,
  PUBLIC_PAGE_CACHE_CONTROL,
  sendCachedBody,
  type PageCache,
  type TrustProxy,
} from "./page-cache.ts";
import { personalCacheControl } from "./personal-responses.ts";
import { inlineScriptHashes } from "./security.ts";

export interface PagePolicy {
  /** the Content-Security-Policy for a page whose inline scripts have these hash sources */
  csp: (scriptHashes: readonly string[]) => string;
  cspHeader: string;
  /** the in-process cache of anonymous pages; null: none (development, or PAGE_CACHE_MB=0) */
  cache: PageCache | null;
}

/**
 * Hands a page request to React Router. Like `@react-router/express`'s handler, except that a
 * POST's body comes from the bytes `pageBodyGuard` already read and checked (the socket is
 * never read twice or without a limit), and the URL is built from the checked Host header.
 * An HTML page is read whole before it is sent: its policy names the hashes of its inline
 * scripts, and an anonymous page gets an ETag and may be cached (page-cache.ts).
 */
export function createPageHandler(opts: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  getLoadContext: (req: Request, res: Response) => AppLoadContext;
  policy: PagePolicy;
}): RequestHandler {
  const handle = createRequestHandler(opts.build, opts.mode);
  const { policy } = opts;
  return async (req, res, next) => {
    try {
      const request = toFetchRequest(req, res);
      const response = await handle(request, opts.getLoadContext(req, res));
      // a form post may have changed what its page shows (a new comment): the next view renders anew
      if (policy.cache && req.method !== "GET" && req.method !== "HEAD" && response.status < 400) policy.cache.deletePath(pagePathOf(req.path));
      if (response.body && /^text\/html\b/i.test(response.headers.get("content-type") ?? "")) await sendPage(req, res, response, policy);
      else await send(req, res, response);
    } catch (err) {
      next(err);
    }
  };
}

async function sendPage(req: Request, res: Response, response: globalThis.Response, policy: PagePolicy): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  if (res.destroyed || res.writableEnded) return;
  const ownCacheControl = response.headers.get("cache-control");
  const setsCookie = response.headers.has("set-cookie");
  const personal = personalCacheControl({ cookie: req.headers.cookie, pathname: req.path, setsCookie, ownCacheControl, page: true });
  const cacheable = req.method === "GET" && response.status === 200 && !ownCacheControl && !setsCookie && !hasPerVisitorCookie(req.headers.cookie, req.path);
  const etag = etagOf(body);
  const headers: [string, string][] = [];
  for (const [key, value] of response.headers.entries()) if (key !== "set-cookie" && !(personal && key === "cache-control")) headers.push([key, value]);
  headers.push([policy.cspHeader, policy.csp(inlineScriptHashes(body))]);
  if (cacheable) headers.push(["Cache-Control", PUBLIC_PAGE_CACHE_CONTROL], ["ETag", etag]);
  else if (personal) headers.push(["Cache-Control", personal]);
  else if (!ownCacheControl) headers.push(["Cache-Control", PRIVATE_PAGE_CACHE_CONTROL]);

  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of headers) res.setHeader(key, value);
  for (const cookie of response.headers.getSetCookie()) res.append("Set-Cookie", cookie);
  if (cacheable && policy.cache) {
    policy.cache.set(pageCacheKey(req, req.originalUrl, req.app.get("trust proxy fn") as TrustProxy), { pathname: req.path, status: response.status, headers, body, etag });
    res.setHeader(PAGE_CACHE_HEADER, "miss");
  }
  if (cacheable) sendCachedBody(req, res, { body });
  else res.end(body);
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

async function send(req: Request, res: Response, response: globalThis.Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // route data carries the root loader's user: for a session it is as private as the page
  const personal = personalCacheControl({
    cookie: req.headers.cookie,
    pathname: req.path,
    setsCookie: response.headers.has("set-cookie"),
    ownCacheControl: response.headers.get("cache-control"),
    page: false,
  });
  for (const [key, value] of response.headers.entries()) if (!(personal && key === "cache-control")) res.append(key, value);
  if (personal) res.setHeader("Cache-Control", personal);
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
