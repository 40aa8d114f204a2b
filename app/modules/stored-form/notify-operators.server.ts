import type { Logger } from "pino";
import type { Mailer } from "#app/modules/account/mailer.server.ts";

export interface OperatorMail {
  subject: string;
  text: string;
  /** where a reply goes: the visitor who wrote, when they gave an address */
  replyTo?: string;
  /** an Ultimate member's message: to SUPPORT_ULTIMATE_EMAIL when it is set */
  ultimate?: boolean;
}

export interface OperatorInbox {
  mailer: Mailer;
  /** CONTACT_EMAIL; unset: messages are only stored (the page says so) */
  contactEmail: string | undefined;
  /** SUPPORT_ULTIMATE_EMAIL: Ultimate members' messages, when set */
  ultimateEmail?: string | undefined;
  logger: Logger;
}

/**
 * Mails a stored message to the site's operators (CONTACT_EMAIL), until the operators' area
 * exists. The message is already in the database: a mail that fails is logged, never shown to
 * the visitor as a failed submission. Resolves when the mail is handed over (tests await it; the
 * routes do not).
 */
export async function notifyOperators(inbox: OperatorInbox, mail: OperatorMail): Promise<boolean> {
  const to = (mail.ultimate ? inbox.ultimateEmail : undefined) ?? inbox.contactEmail;
  if (!to) return false;
  try {
    await inbox.mailer.send({ to, subject: mail.subject, text: mail.text, ...(mail.replyTo ? { replyTo: mail.replyTo } : {}) });
    return true;
  } catch (err) {
    inbox.logger.error({ err, subject: mail.subject }, "could not mail a stored message to CONTACT_EMAIL; it is in the database");
    return false;
  }
}
