import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { databaseErrorCode } from "#db/errors.ts";
import type { Database } from "#db/client.ts";
import { contactMessages } from "#db/schema/index.ts";
import type { ContactInput } from "./contact-schema.ts";
import { notifyOperators, type OperatorInbox } from "./notify-operators.server.ts";

export type SubmitContactResult =
  /** `mailed`: the operators' mail, handed over in the background (resolves false without CONTACT_EMAIL) */
  | { ok: true; stored: boolean; mailed?: Promise<boolean> }
  /** the message could not be stored: the user must be told, never shown a false success */
  | { ok: false; code: "contact.store_failed" };

/**
 * Store one validated contact message, then mail it to the operators (CONTACT_EMAIL) without
 * making the visitor wait. A filled honeypot stores nothing but reports success, so the bot
 * learns nothing. A database failure is logged and returned, never swallowed.
 */
export async function submitContactMessage(
  deps: { db: Database; logger: Logger; inbox?: OperatorInbox },
  input: ContactInput,
  meta: { ipHash: string | null },
): Promise<SubmitContactResult> {
  if (input.website.trim() !== "") {
    deps.logger.info({ ipHash: meta.ipHash }, "contact form: honeypot filled, message discarded");
    return { ok: true, stored: false };
  }
  // the id is chosen here so a failure can be logged by id, never by the message's content
  const id = randomUUID();
  try {
    await deps.db.insert(contactMessages).values({
      id,
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      ipHash: meta.ipHash,
    });
  } catch (err) {
    deps.logger.error({ id, dbCode: databaseErrorCode(err) }, "contact form: could not store the message");
    return { ok: false, code: "contact.store_failed" };
  }
  deps.logger.info({ id, ipHash: meta.ipHash }, "contact form: message stored");
  const mailed = deps.inbox
    ? notifyOperators(deps.inbox, {
        subject: `Contact form: ${input.subject.trim() || "(no subject)"}`,
        text: `${input.name} <${input.email}> wrote through the contact form:\n\n${input.message}\n\n(Message ${id}. Reply to this mail to answer ${input.name}.)\n`,
        replyTo: input.email,
      })
    : Promise.resolve(false);
  return { ok: true, stored: true, mailed };
}
