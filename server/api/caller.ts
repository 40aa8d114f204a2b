import type { Request } from "express";
import type { Logger } from "pino";
import type { AccountServices } from "#app/modules/account/account-services.server.ts";
import { callerOf, viewerFromCookie } from "#app/modules/billing/viewer.server.ts";
import type { Database } from "#db/client.ts";
import type { Caller } from "#engine/types.ts";
import { callerOfHolder, keyHolderOf } from "./api-key-auth.ts";

export type CallerResolver = (req: Request) => Promise<Caller>;

/**
 * Who is calling the API: the owner of the API key the request was made with (api-key-auth.ts
 * verified it), else the signed-in account of the session cookie, with the plan it holds now
 * (issue 9 §4), else anonymous. A failing lookup (database down) answers anonymous, the
 * smallest entitlement, rather than failing every download.
 */
export function createCallerResolver(deps: { accounts: AccountServices; db: Database; logger: Logger }): CallerResolver {
  return async (req) => {
    const holder = keyHolderOf(req);
    if (holder) return callerOfHolder(holder);
    try {
      return callerOf(await viewerFromCookie(deps, req.headers.cookie));
    } catch (err) {
      deps.logger.error({ err }, "api: session lookup failed; answering as anonymous");
      return { kind: "anonymous" };
    }
  };
}

/** Every caller is anonymous (tests and hosts without accounts). */
export const anonymousCaller: CallerResolver = async () => ({ kind: "anonymous" });

/** The client address for fair-use limits (Express applies the host's `trust proxy` setting). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}
