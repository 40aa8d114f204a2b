import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { databaseErrorCode } from "#db/errors.ts";
import type { Database } from "#db/client.ts";
import { platformRequests } from "#db/schema/index.ts";
import { notifyOperators, type OperatorInbox } from "#app/modules/contact/notify-operators.server.ts";
import type { PlatformRequestInput } from "./platform-request-schema.ts";

export type SubmitPlatformRequestResult = { ok: true; stored: boolean; mailed?: Promise<boolean> } | { ok: false; code: "platform_request.store_failed" };

/**
 * Store one validated platform request, then mail it to the operators (CONTACT_EMAIL) in the
 * background. Honeypot submissions look successful and store nothing; a database failure is
 * logged and returned so the user sees an error.
 */
export async function submitPlatformRequest(
  deps: { db: Database; logger: Logger; inbox?: OperatorInbox },
  input: PlatformRequestInput,
  meta: { ipHash: string | null },
): Promise<SubmitPlatformRequestResult> {
  if (input.website.trim() !== "") {
    deps.logger.info({ ipHash: meta.ipHash }, "platform request: honeypot filled, request discarded");
    return { ok: true, stored: false };
  }
  const id = randomUUID();
  try {
    await deps.db.insert(platformRequests).values({
      id,
      platformName: input.platformName,
      email: input.email,
      details: input.details,
      ipHash: meta.ipHash,
    });
  } catch (err) {
    deps.logger.error({ id, dbCode: databaseErrorCode(err) }, "platform request: could not store the request");
    return { ok: false, code: "platform_request.store_failed" };
  }
  deps.logger.info({ id }, "platform request stored");
  const mailed = deps.inbox
    ? notifyOperators(deps.inbox, {
        subject: `Platform request: ${input.platformName}`,
        text: `A visitor asked for support of ${input.platformName}.\n\n${input.details.trim() || "(no details)"}\n\n${input.email ? `Tell them when it is ready: ${input.email}` : "They left no address."}\n(Request ${id}.)\n`,
        ...(input.email ? { replyTo: input.email } : {}),
      })
    : Promise.resolve(false);
  return { ok: true, stored: true, mailed };
}
