/**
 * `Authorization: Bearer <key>` on the API (issue 31 §1): the key's owner, with the plan they
 * hold now, is the caller of every /api/v1 route; an unknown or revoked key is a 401, a plan
 * without API access a 403, and each key has the plan table's requests per minute (shared by
 * every instance through `store`), told in the standard RateLimit-* headers. Session-only
 * routes (API keys themselves, billing) refuse a key: keys cannot make keys.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { rateLimit, type Store } from "express-rate-limit";
import type { Logger } from "pino";
import { KEY_ERRORS, type KeyErrorCode } from "#app/modules/api-keys/api-key-messages.ts";
import type { ApiKeys } from "#app/modules/api-keys/api-keys.server.ts";
import { getUserPlan } from "#app/modules/billing/user-plan.server.ts";
import { holds, limitOf, type PlanId } from "#common/plans.ts";
import type { Database } from "#db/client.ts";
import { errorBody } from "#engine/errors.ts";
import { planRequired } from "#engine/refusals.ts";
import type { Caller } from "#engine/types.ts";

/** The key a request was made with, once verified (set on the request for the routes). */
export interface KeyHolder {
  keyId: string;
  userId: string;
  plan: PlanId;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** the key a request presents, or null when it presents none (a malformed header is an invalid key) */
export function presentedKey(req: Request): string | null {
  const header = req.headers.authorization;
  if (header === undefined) return null;
  return BEARER.exec(header)?.[1] ?? "";
}

export function keyHolderOf(req: Request): KeyHolder | null {
  return (req as Request & { apiKeyHolder?: KeyHolder }).apiKeyHolder ?? null;
}

/**
 * A call made with the key of a plan that has the white label (issue 31 §1): what it gives back
 * carries no site name. The same user on the site itself (a session) still sees the site's.
 */
export function whiteLabelled(req: Request): boolean {
  const holder = keyHolderOf(req);
  return holder !== null && holds(holder.plan, "whiteLabel");
}

/** the engine's caller for a key's owner */
export function callerOfHolder(holder: KeyHolder): Caller {
  return holder.plan === "free" ? { kind: "free", userId: holder.userId } : { kind: "premium", plan: holder.plan, userId: holder.userId };
}

function answer(res: Response, code: KeyErrorCode, headers: Record<string, string> = {}): void {
  res.set({ "cache-control": "no-store", ...headers });
  res.status(KEY_ERRORS[code].status).json({ error: { code, message: KEY_ERRORS[code].message } });
}

/** a route that takes a session only: a request presenting a key is refused, whatever the key */
export function refuseKeys(): RequestHandler {
  return (req, res, next) => {
    if (presentedKey(req) !== null) answer(res, "key.session_only");
    else next();
  };
}

/**
 * The API's gate for keys: requests without an Authorization header pass untouched (the session
 * cookie decides, as before). A key is never logged; the request log keeps its key id only.
 */
export function apiKeyAuth(deps: { keys: ApiKeys; db: Database; logger: Logger; store?: Store; now?: () => Date }): RequestHandler {
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: (req) => limitOf(keyHolderOf(req as Request)?.plan ?? "free", "requestsPerKeyPerMinute") ?? 0,
    keyGenerator: (req) => `key:${keyHolderOf(req as Request)?.keyId ?? "none"}`,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    store: deps.store,
    passOnStoreError: true,
    handler: (req, res) => {
      const resetAt = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime();
      const seconds = resetAt ? Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)) : 60;
      answer(res, "key.rate_limited", { "retry-after": String(seconds) });
    },
  });

  return async (req: Request, res: Response, next: NextFunction) => {
    const key = presentedKey(req);
    if (key === null) return next();
    try {
      const found = key ? await deps.keys.verify(key) : null;
      if (!found) {
        answer(res, "key.invalid", { "www-authenticate": 'Bearer error="invalid_token"' });
        return;
      }
      const plan = (await getUserPlan(deps.db, found.userId, deps.now?.())).plan;
      const holder: KeyHolder = { ...found, plan };
      (req as Request & { apiKeyHolder?: KeyHolder }).apiKeyHolder = holder;
      if (!holds(plan, "apiAccess")) {
        res.set("cache-control", "no-store").status(403).json(errorBody(planRequired(callerOfHolder(holder), "apiAccess")));
        return;
      }
      deps.keys.recordUse(found.keyId).catch((err: unknown) => deps.logger.warn({ err, keyId: found.keyId }, "could not count an API key's request"));
      limiter(req, res, next);
    } catch (err) {
      next(err);
    }
  };
}
