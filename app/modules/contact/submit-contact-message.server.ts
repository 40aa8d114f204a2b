import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { databaseErrorCode } from "#db/errors.ts";
import type { Database } from "#db/client.ts";
import { contactMessages } from "#db/schema/index.ts";
import type { ContactInput } from "./contact-schema.ts";

export type SubmitContactResult =
  | { ok: true; stored: boolean }
  /** the message could not be stored: the user must be told, never shown a false success */
  | { ok: false; code: "contact.store_failed" };

/**
 * Store one validated contact message. A filled honeypot stores nothing but reports success,
 * so the bot learns nothing. A database failure is logged and returned, never swallowed.
 */
export async function submitContactMessage(
  deps: { db: Database; logger: Logger },
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
  return { ok: true, stored: true };
}
