import type { RequestHandler } from "express";
import { hasPerVisitorCookie, PRIVATE_PAGE_CACHE_CONTROL } from "./page-cache.ts";

/**
 * Responses made for one visitor (issue 27 §11). The root loader puts the signed-in user's name
 * and email into every page and into every route-data answer (`*.data`, React Router's single
 * fetch), so whatever is rendered for a session is `private, no-store`: no shared cache, no
 * browser cache and no service worker (worker/policy.ts `isStorablePage`) may keep it.
 */

/** The paths whose answer ends a session; each says so to the browser (Clear-Site-Data). */
export const SIGN_OUT_PATHS = new Set(["/logout", "/logout.data", "/api/auth/sign-out"]);

/**
 * `Clear-Site-Data: "cache"` drops the browser's HTTP cache of this origin (Chromium, Firefox,
 * Safari 17+). Not "storage": that would also unregister the service worker and wipe the offline
 * queue; the worker clears its own page caches on a sign-out (worker/service-worker.ts).
 */
export const CLEAR_CACHE_ON_SIGN_OUT: readonly [string, string] = ["Clear-Site-Data", '"cache"'];

/**
 * The Cache-Control a rendered answer (page, route data or resource route) must carry, or
 * undefined to keep the route's own. A request with a session (or the blog's visitor cookie) or
 * an answer that sets a cookie is personal: a page or route data is then private whatever the
 * route chose; a resource route (an image, a feed) keeps a choice it made for everyone.
 */
export function personalCacheControl(opts: {
  cookie: string | undefined;
  pathname: string;
  setsCookie: boolean;
  ownCacheControl: string | null;
  page: boolean;
}): string | undefined {
  const personal = opts.setsCookie || hasPerVisitorCookie(opts.cookie, opts.pathname);
  if (!personal) return undefined;
  const rendered = opts.page || opts.pathname.endsWith(".data");
  if (rendered || !opts.ownCacheControl) return PRIVATE_PAGE_CACHE_CONTROL;
  return undefined;
}

/**
 * Before the auth library and the page handler: the library's answers (get-session: the user's
 * name and email) are private whatever it chose (it says `no-store` alone), set as the head goes
 * out because it writes its own headers first; a sign-out clears the HTTP cache.
 */
export function personalResponseHeaders(): RequestHandler {
  return (req, res, next) => {
    if (req.path.startsWith("/api/auth/")) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
        this.setHeader("Cache-Control", PRIVATE_PAGE_CACHE_CONTROL);
        return writeHead.apply(this, args);
      } as typeof res.writeHead;
    }
    if (req.method === "POST" && SIGN_OUT_PATHS.has(req.path)) res.setHeader(...CLEAR_CACHE_ON_SIGN_OUT);
    next();
  };
}
