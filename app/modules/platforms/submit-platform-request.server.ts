import { platformRequests } from "#db/schema/index.ts";
import { submitStoredForm, type StoredFormDeps, type StoredFormResult, type StoredFormStore } from "#app/modules/stored-form/submit-stored-form.server.ts";
import type { PlatformRequestErrorCode, PlatformRequestInput } from "./platform-request-schema.ts";

export type SubmitPlatformRequestResult = StoredFormResult<PlatformRequestErrorCode>;

/** Platform requests: the platform_requests table, and a mail that says whom to tell when it is ready. */
const PLATFORM_REQUEST_STORE: StoredFormStore<PlatformRequestInput, PlatformRequestErrorCode> = {
  insert: (db, row, input) =>
    db.insert(platformRequests).values({ id: row.id, platformName: input.platformName, email: input.email, details: input.details, ipHash: row.ipHash }),
  mail: (id, input) => ({
    subject: `Platform request: ${input.platformName}`,
    text: `A visitor asked for support of ${input.platformName}.\n\n${input.details.trim() || "(no details)"}\n\n${input.email ? `Tell them when it is ready: ${input.email}` : "They left no address."}\n(Request ${id}.)\n`,
    ...(input.email ? { replyTo: input.email } : {}),
  }),
  storeFailed: "platform_request.store_failed",
  logs: {
    discarded: "platform request: honeypot filled, request discarded",
    failed: "platform request: could not store the request",
    stored: "platform request stored",
  },
};

/** Store one validated platform request and mail it to the operators (see submitStoredForm). */
export function submitPlatformRequest(deps: StoredFormDeps, input: PlatformRequestInput, meta: { ipHash: string | null }): Promise<SubmitPlatformRequestResult> {
  return submitStoredForm(PLATFORM_REQUEST_STORE, deps, input, meta);
}
