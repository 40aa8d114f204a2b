import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler } from "express";
import { safeReturnTo } from "#app/modules/account/return-to.ts";
import { refuse } from "./http-errors.ts";
import { readBodyWithin } from "./request-guards.ts";

/**
 * What of better-auth answers over HTTP (issue 27 §3, §8, §9, §20). The library mounts some forty
 * endpoints; the product uses three. Every other one (update-user, change-email,
 * change-password, verify-password, request-password-reset, send-verification-email...) would
 * write a field, send a mail or check a password around our forms' limits, so it is not reached
 * at all: 404. Our form actions call the library's server API, which this does not affect.
 */
export const AUTH_HTTP_ROUTES: ReadonlyMap<string, "GET" | "POST"> = new Map([
  // the session of the cookie (docs/api.md)
  ["/api/auth/get-session", "GET"],
  // the logout of a script; the Logout button posts to /logout
  ["/api/auth/sign-out", "POST"],
  // the link mailed after signup or an email change
  ["/api/auth/verify-email", "GET"],
]);

/** None of the three takes more than an empty JSON object; a few KB is generous. */
export const AUTH_BODY_LIMIT = 4 * 1024;

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * In front of better-auth's Node handler: the allow-list above, a body limit checked while the
 * body arrives (a 413 before the library reads a byte), and a verify-email `callbackURL` that is
 * always a path on this site (the library redirects to it, before or without checking the token).
 */
export function authGate(handler: NodeHandler): RequestHandler {
  return async (req, res, next) => {
    const method = AUTH_HTTP_ROUTES.get(req.path);
    // a refusal reads no body: what was sent is discarded within the host's limits
    if (method === undefined) return refuse(req, res, "request.not_found", { discardUpload: true });
    const asked = req.method === "HEAD" ? "GET" : req.method;
    if (asked !== method) return refuse(req, res, "request.method_not_allowed", { discardUpload: true, headers: { allow: method === "GET" ? "GET, HEAD" : method } });
    const body = await readBodyWithin(req, AUTH_BODY_LIMIT);
    if (body === "aborted") return;
    if (body === "too_large") return refuse(req, res, "request.too_large", { discardUpload: true });
    // the stream is read: better-call's adapter takes a consumed request's body from `req.body`
    if (method === "POST") (req as Request & { body: unknown }).body = body.toString("utf8");
    if (req.path === "/api/auth/verify-email") req.url = withSafeCallback(req.url);
    try {
      await handler(req, res);
    } catch (err) {
      next(err);
    }
  };
}

/** The request URL with its `callbackURL` replaced by a same-site path (the dashboard when absent or foreign). */
export function withSafeCallback(url: string): string {
  const q = url.indexOf("?");
  const params = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
  params.set("callbackURL", safeReturnTo(params.get("callbackURL")));
  return `${q === -1 ? url : url.slice(0, q)}?${params.toString()}`;
}
