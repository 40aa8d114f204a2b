import { KEY_ERRORS } from "#app/modules/api-keys/api-key-messages.ts";
import { PROFILE_ERRORS } from "#app/modules/profiles/profile-messages.ts";
import { BILLING_ERRORS } from "#app/modules/billing/billing-messages.ts";
import { JOB_ERRORS } from "#app/modules/jobs/job-messages.ts";
import type { ErrorRequestHandler, NextFunction, Request, Response } from "express";
import { CatalogueError, JOB_STORAGE_ERRORS } from "#common/error-catalogue.ts";
import { ERRORS } from "#engine/errors.ts";
import { HOST_ERRORS, hostErrorOf, refuse } from "../http-errors.ts";
import { WEBHOOK_ERRORS } from "./billing.ts";

/**
 * The catalogues whose codes a JSON answer under /api can carry: the engine's (/api/v1), the
 * host's refusals (any API path), billing's (the payment calls; its portal codes reach only the
 * dashboard's notices, but one catalogue is listed whole), the Stripe webhook's, and the
 * scheduled downloads' (/api/v1/jobs; job storage's code reaches clients as a failed job's
 * `error`), the API keys' (/api/v1/keys, and a request made with a key) and the download profiles'
 * (/api/v1/profiles, and `profile` on POST /downloads). The account, comment and contact messages are answered by pages only. The OpenAPI
 * document enumerates these codes; docs/api.md lists them (server/api/error-codes.test.ts checks
 * both).
 */
export const API_ERROR_CATALOGUES = { engine: ERRORS, host: HOST_ERRORS, billing: BILLING_ERRORS, webhook: WEBHOOK_ERRORS, jobs: JOB_ERRORS, jobStorage: JOB_STORAGE_ERRORS, keys: KEY_ERRORS, profiles: PROFILE_ERRORS } as const;

export const API_ERROR_CODES = Object.values(API_ERROR_CATALOGUES).flatMap((catalogue) => Object.keys(catalogue));

/**
 * How the API's own routers (keys, profiles, jobs) end: a catalogue refusal of any domain (the
 * engine's below 500 among them: plan.required naming the plans) answers with its code and
 * words, uncached; a body-parser refusal (bad JSON, too large, charset) is the host's; anything
 * else goes on to the next handler.
 */
export function catalogueRefusals(): ErrorRequestHandler {
  return (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof CatalogueError && err.status < 500) {
      res.status(err.status).set("cache-control", "no-store").json({ error: { code: err.code, message: err.message } });
      return;
    }
    const refusal = hostErrorOf(err);
    if (refusal) {
      refuse(req, res, refusal, { discardUpload: refusal === "request.too_large" || refusal === "request.unsupported_type" });
      return;
    }
    next(err);
  };
}
