import type { RequestHandler } from "express";
import { rateLimit, type Store } from "express-rate-limit";
import { EngineError, errorBody } from "#engine/errors.ts";

/**
 * One per-IP budget for every request that resolves a link (issue 27, findings 4–6): `POST
 * /resolve`, `POST /downloads` and `GET /download` each start a resolve (a page load, a probe,
 * perhaps a yt-dlp run), and the GET had no limit at all (60 fresh resolves in 4 s amplified a
 * crash, the resolve cache's growth and yt-dlp's starvation). Shared by every instance through
 * `store` when REDIS_URL is set; a store that fails lets requests through, like the POST limit.
 * A clip's preview frames (`GET /frame`) have a budget of the same size in a store of their own.
 */
export function createResolveLimiter(opts: { perMinute: number; store?: Store; what?: string }): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: opts.perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: opts.store,
    passOnStoreError: true,
    handler: (req, res) => {
      const resetAt = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime();
      const seconds = resetAt ? Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)) : 60;
      const refusal = new EngineError("download.rate_limited", { retryAfter: seconds, detail: opts.what ?? "resolve limit per IP" });
      res.setHeader("Retry-After", String(seconds));
      res.setHeader("Cache-Control", "no-store");
      res.status(refusal.status).json(errorBody(refusal));
    },
  });
}
