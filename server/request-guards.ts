import type { NextFunction, Request, RequestHandler, Response } from "express";
import { isApiPath, refuse } from "./http-errors.ts";

/**
 * Checks every request passes before a route sees it (issue: hardening). Each refusal is a 4xx
 * with a clear sentence; nothing here reads more of a body than its route allows.
 */

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOST_HEADER = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[[0-9a-f:.]+\\])(?::(\\d{1,5}))?$`, "i");

function validHost(host: string): boolean {
  const m = HOST_HEADER.exec(host);
  if (m === null || (m[1] !== undefined && Number(m[1]) > 65535)) return false;
  // what the page handler will parse (a numeric last label such as `gm.0` is not a valid host)
  try {
    new URL(`http://${host}`);
    return true;
  } catch {
    return false;
  }
}

/** Probes from a load balancer may come without a Host header; they carry no user input. */
const PROBES = new Set(["/healthz", "/readyz"]);

/** A missing or malformed Host (or forwarded host behind a trusted proxy) is refused. */
export function hostGuard(): RequestHandler {
  return (req, res, next) => {
    if (PROBES.has(req.path)) return next();
    const host = req.headers.host;
    if (!host || !validHost(host)) return refuse(req, res, "request.bad_host");
    if (req.app.enabled("trust proxy")) {
      const forwarded = req.get("x-forwarded-host");
      if (forwarded !== undefined && !forwarded.split(",").every((h) => validHost(h.trim()))) {
        return refuse(req, res, "request.bad_host");
      }
    }
    next();
  };
}

/**
 * A path that cannot be percent-decoded, or a NUL byte anywhere in the path or query, is refused:
 * no page or API route takes either, and the database rejects NUL in text.
 */
/**
 * HTTP/1.1 lets a client send the whole URL as the request target (`GET http://host/blog`,
 * "absolute-form", meant for proxies). We serve one site, so only the path and query count:
 * the target is rewritten to its origin-form (`/blog`) before anything reads it. The Host header,
 * checked by `hostGuard`, still names the site. Any other target that is not a path (`*`, a bare
 * word) is refused.
 */
export function originFormTarget(): RequestHandler {
  return (req, res, next) => {
    const target = req.url;
    if (target.startsWith("/")) return next();
    const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
    if (!absolute) return refuse(req, res, "request.bad_url");
    const rest = target.slice(absolute[0].length).replace(/#.*$/, "");
    req.url = rest.startsWith("/") ? rest : `/${rest}`;
    req.originalUrl = req.url;
    next();
  };
}

export function urlGuard(): RequestHandler {
  return (req, res, next) => {
    const raw = req.originalUrl;
    const q = raw.indexOf("?");
    const rawPath = q === -1 ? raw : raw.slice(0, q);
    const rawQuery = q === -1 ? "" : raw.slice(q + 1);
    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      return refuse(req, res, "request.bad_url");
    }
    if (path.includes("\0") || /%00/i.test(rawQuery) || rawQuery.includes("\0")) return refuse(req, res, "request.bad_url");
    // `//faq` is a typo of `/faq`; the router would read its start as a host. One slash, always.
    if (rawPath.startsWith("//")) {
      res.redirect(308, rawPath.replace(/^\/+/, "/") + (q === -1 ? "" : raw.slice(q)));
      return;
    }
    next();
  };
}

const PAGE_METHODS = new Set(["GET", "HEAD", "POST"]);

/** Pages answer GET, HEAD and POST (form actions); anything else (TRACE, PUT, DELETE...) is 405. */
export function pageMethodGuard(): RequestHandler {
  return (req, res, next) => {
    if (isApiPath(req.path) || PAGE_METHODS.has(req.method)) return next();
    refuse(req, res, "request.method_not_allowed", { headers: { allow: "GET, HEAD, POST" } });
  };
}

/** The origins this site is reached at: PUBLIC_URL's, and the one the request itself names. */
function ownOrigins(req: Request, publicUrl: string): string[] {
  const origins = [new URL(publicUrl).origin];
  try {
    origins.push(new URL(`${req.protocol}://${req.host}`).origin);
  } catch {
    // the Host was checked before; an unparsable one adds nothing
  }
  return origins;
}

/**
 * Did a browser send this request on behalf of another site? `Origin` decides when present
 * (POSTs carry it), then `Sec-Fetch-Site`, then `Referer`. A request with none of them (curl, a
 * download manager, a server) is not a cross-site browser request.
 */
export function isCrossSite(req: Request, publicUrl: string): boolean {
  const own = ownOrigins(req, publicUrl);
  const origin = req.get("origin");
  if (origin !== undefined) return !own.includes(origin);
  const site = req.get("sec-fetch-site");
  if (site !== undefined) return site !== "same-origin" && site !== "none";
  const referer = req.get("referer");
  if (!referer) return false;
  try {
    return !own.includes(new URL(referer).origin);
  } catch {
    return true;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** GETs that start work counted against the visitor: creating or streaming a download. */
function startsDownload(req: Request): boolean {
  return req.path === "/api/v1/download" || req.path.startsWith("/api/v1/dl/");
}

/**
 * Cross-site request forgery: every state-changing request, and every GET that starts a
 * download, must come from our own pages (or from no browser at all). An `<img>` or a form on
 * another site can no longer subscribe a visitor or spend their download allowance.
 */
export function crossSiteGuard(publicUrl: string): RequestHandler {
  return (req, res, next) => {
    const download = startsDownload(req);
    const guarded = !SAFE_METHODS.has(req.method) || download;
    if (guarded && isCrossSite(req, publicUrl)) return refuse(req, res, "request.cross_site");
    if (download && !loadsAsDownload(req)) return refuse(req, res, "request.cross_site", { message: NOT_A_DOWNLOAD });
    next();
  };
}

const NOT_A_DOWNLOAD = "A download can only be started by following its link or from our page, not embedded as an image or other resource.";

/**
 * Our pages start a download by following the link (`Sec-Fetch-Dest: document`) or with
 * `fetch` (`empty`); clients without the header (curl, download managers) are fine too. A
 * download requested as an image, script, style, media or font was embedded somewhere, even on
 * one of our own pages (a comment, say), and would spend the visitor's allowance unseen.
 */
function loadsAsDownload(req: Request): boolean {
  const dest = req.get("sec-fetch-dest");
  return dest === undefined || dest === "document" || dest === "empty";
}

type BodyKind = "urlencoded" | "multipart" | "json";

interface BodyRule {
  path: RegExp;
  limit: number;
  kinds: BodyKind[];
}

const KB = 1024;
/** Form posts and their fetcher twins (`/contact-us.data`). Limits fit the largest valid form. */
const PAGE_BODY_RULES: BodyRule[] = [
  // a comment with a 2 MB image; the route refuses above 4 MB with its own message first
  { path: /^\/blog\/[^/]+(?:\.data)?$/, limit: 4 * KB * KB + 256 * KB, kinds: ["urlencoded", "multipart"] },
  // 5,000 characters of message, each up to 4 bytes of UTF-8, percent-encoded
  { path: /^\/contact-us(?:\.data)?$/, limit: 64 * KB, kinds: ["urlencoded", "multipart"] },
  { path: /^\/supported-sites(?:\.data)?$/, limit: 32 * KB, kinds: ["urlencoded", "multipart"] },
  { path: /^\/newsletter(?:\.data)?$/, limit: 4 * KB, kinds: ["urlencoded", "multipart", "json"] },
];
const DEFAULT_PAGE_RULE: BodyRule = { path: /./, limit: 16 * KB, kinds: ["urlencoded", "multipart"] };

export function pageBodyRule(path: string): BodyRule {
  return PAGE_BODY_RULES.find((r) => r.path.test(path)) ?? DEFAULT_PAGE_RULE;
}

function kindOf(contentType: string): BodyKind | null {
  const type = contentType.split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return "urlencoded";
  if (type === "multipart/form-data") return "multipart";
  if (type === "application/json") return "json";
  return null;
}

function charsetOf(contentType: string): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m?.[1]?.toLowerCase() ?? null;
}

/** Reads at most `limit` bytes; stops reading (and says so) the moment the body is larger. */
export function readBodyWithin(req: Request, limit: number): Promise<Buffer | "too_large" | "aborted"> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      resolve("too_large");
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | "too_large" | "aborted") => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish("too_large");
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks, size));
    const onError = () => finish("aborted");
    const onAborted = () => finish("aborted");
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

const NOT_ALLOWED_CHARS = "The form contains characters that are not allowed. Please remove them and try again.";

/** Is the body a readable instance of its declared kind, without NUL in any text field? */
async function checkBody(kind: BodyKind, contentType: string, body: Buffer): Promise<"ok" | "bad_body" | "bad_chars"> {
  if (kind === "urlencoded") {
    for (const [k, v] of new URLSearchParams(body.toString("utf8"))) if (k.includes("\0") || v.includes("\0")) return "bad_chars";
    return "ok";
  }
  if (kind === "json") {
    try {
      JSON.parse(body.toString("utf8"));
    } catch {
      return "bad_body";
    }
    return body.includes(0) || /\\u0000/i.test(body.toString("utf8")) ? "bad_chars" : "ok";
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    return "bad_body";
  }
  for (const [k, v] of form) if (k.includes("\0") || (typeof v === "string" && v.includes("\0"))) return "bad_chars";
  return "ok";
}

/**
 * Page POSTs: the body must be a form (or JSON where the route takes it), in UTF-8, not
 * compressed, within the route's size limit (checked while reading), and well-formed. The
 * checked bytes are kept in `res.locals.body` for the page handler, so the route reads them
 * from memory instead of the socket.
 */
export function pageBodyGuard(): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (isApiPath(req.path) || req.method !== "POST") return next();
    const rule = pageBodyRule(req.path);
    const contentType = req.get("content-type") ?? "";
    const kind = kindOf(contentType);
    const encoding = (req.get("content-encoding") ?? "identity").trim().toLowerCase();
    const charset = charsetOf(contentType);
    if (!kind || !rule.kinds.includes(kind) || encoding !== "identity" || (charset && charset !== "utf-8" && charset !== "utf8")) {
      return refuse(req, res, "request.unsupported_type", { discardUpload: true });
    }
    const body = await readBodyWithin(req, rule.limit);
    if (body === "aborted") return;
    if (body === "too_large") return refuse(req, res, "request.too_large", { discardUpload: true });
    const verdict = await checkBody(kind, contentType, body);
    if (verdict === "bad_body") return refuse(req, res, "request.bad_body");
    if (verdict === "bad_chars") return refuse(req, res, "request.invalid", { message: NOT_ALLOWED_CHARS });
    res.locals.body = body;
    next();
  };
}
