import type { MailMessage } from "#app/modules/account/mailer.server.ts";
import { NEWSLETTER_CONFIRM_DAYS, NEWSLETTER_CONFIRM_MS } from "./newsletter-rules.ts";
import { signNewsletterToken, type NewsletterTokenPurpose } from "./newsletter-token.server.ts";

/** What a newsletter mail's links are built from: PUBLIC_URL (never a request's Host) and the derived key. */
export interface NewsletterSender {
  publicUrl: string;
  siteName: string;
  key: Buffer;
}

export interface Subscriber {
  id: string;
  email: string;
}

export function newsletterLink(sender: NewsletterSender, purpose: NewsletterTokenPurpose, subscriberId: string, expiresAt?: Date): string {
  const url = new URL(`/newsletter/${purpose}`, sender.publicUrl);
  url.searchParams.set("token", signNewsletterToken(sender.key, purpose, subscriberId, expiresAt));
  return url.toString();
}

/**
 * Every mail to a newsletter address is built here, so each one carries the unsubscribe link in
 * its text and as the one-click header pair of RFC 8058 (mail clients show their own button).
 */
export function newsletterMail(sender: NewsletterSender, to: Subscriber, mail: { subject: string; text: string }): MailMessage {
  const unsubscribe = newsletterLink(sender, "unsubscribe", to.id);
  return {
    to: to.email,
    subject: mail.subject,
    text: `${mail.text}\n\n-- \nYou get this email because this address was entered in the ${sender.siteName} newsletter box.\nUnsubscribe (one click, no login): ${unsubscribe}\n`,
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** The double opt-in mail: its confirm link expires with the confirm window. */
export function confirmationMail(sender: NewsletterSender, to: Subscriber, now: Date = new Date()): MailMessage {
  const confirm = newsletterLink(sender, "confirm", to.id, new Date(now.getTime() + NEWSLETTER_CONFIRM_MS));
  return newsletterMail(sender, to, {
    subject: `Confirm your ${sender.siteName} newsletter subscription`,
    text:
      `Someone, hopefully you, asked to receive the ${sender.siteName} newsletter at this address.\n\n` +
      `To confirm, open this link and press "Confirm subscription":\n${confirm}\n\n` +
      `The link works for ${NEWSLETTER_CONFIRM_DAYS} days. If you did not ask for this, ignore this email: ` +
      `an address that is not confirmed gets no newsletter and is deleted after ${NEWSLETTER_CONFIRM_DAYS} days.`,
  });
}
