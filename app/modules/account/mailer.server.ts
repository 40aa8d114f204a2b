import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type * as Nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** where replies go (a contact message: the visitor who wrote it) */
  replyTo?: string;
  /** extra header fields (the newsletter's List-Unsubscribe, RFC 8058); nodemailer folds and encodes them */
  headers?: Record<string, string>;
  /** the sender's display name instead of the site's (a white-labelled mail); the address stays the site's */
  fromName?: string;
}

/** the address of a From value ("VidFetch <no-reply@host>" or a bare address) */
function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
}

/** the message nodemailer sends: the site's From, or the same address under the message's sender name */
function envelope(from: string, { fromName, ...message }: MailMessage) {
  return { ...message, from: fromName ? { name: fromName, address: addressOf(from) } : from };
}

/** Outgoing mail, behind an interface so tests and the outbox can stand in for SMTP. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

type Transport = ReturnType<typeof Nodemailer.createTransport>;

/** nodemailer (~5 MB of heap) is loaded by the first mail, not at start: most servers send none for hours (docs/decisions/019). */
function lazyTransport(create: (createTransport: typeof Nodemailer.createTransport) => Transport): () => Promise<Transport> {
  let transport: Promise<Transport> | undefined;
  return () => (transport ??= import("nodemailer").then((nodemailer) => create(nodemailer.createTransport)));
}

/**
 * SMTP when `SMTP_URL` is set; otherwise every message becomes an `.eml` file in
 * `DATA_DIR/outbox/` and a log line, so a self-hoster without a mail server can still follow
 * a password-reset link.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string; logger: Logger }): Mailer {
  const log = opts.logger.child({ module: "mail" });
  const { smtpUrl } = opts;
  if (smtpUrl) {
    const transport = lazyTransport((createTransport) => createTransport(smtpUrl));
    return {
      async send(message) {
        await (await transport()).sendMail(envelope(opts.from, message));
        log.info({ subject: message.subject }, "mail sent");
      },
    };
  }
  // Builds the same RFC 5322 message SMTP would carry, without sending it anywhere.
  const composer = lazyTransport((createTransport) => createTransport({ streamTransport: true, buffer: true, newline: "unix" }));
  return {
    async send(message) {
      const info = await (await composer()).sendMail(envelope(opts.from, message));
      await mkdir(opts.outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ file, subject: message.subject }, "SMTP_URL is not set: mail written to the outbox");
    },
  };
}
