import type { AppLoadContext } from "react-router";
import { runAfterAnswer } from "#app/modules/account/background-work.server.ts";
import { limitMailsPerAddress } from "#app/modules/account/per-address-mailer.server.ts";
import { confirmationMail, type NewsletterSender, type Subscriber } from "./newsletter-mail.server.ts";
import { newsletterKeyFrom } from "./newsletter-token.server.ts";

type MailContext = Pick<AppLoadContext, "config" | "publicConfig" | "mailer" | "accounts" | "logger" | "afterAnswer">;

export function newsletterSender(context: Pick<AppLoadContext, "config" | "publicConfig">): NewsletterSender {
  return { publicUrl: context.publicConfig.publicUrl, siteName: context.publicConfig.siteName, key: newsletterKeyFrom(context.config) };
}

/**
 * Mails the confirmation link once the visitor has been answered: the answer then takes the same
 * time whether or not a mail goes out, so it does not tell who is subscribed (as the account
 * forms, issue 27 §10). The mail counts against the address's hourly mail budget like every
 * other mail the site sends to an address it was given (§9).
 */
export function sendConfirmationAfterAnswer(context: MailContext, to: Subscriber): void {
  const mailer = limitMailsPerAddress(context.mailer, context.accounts.limiter, context.logger);
  const mail = confirmationMail(newsletterSender(context), to);
  runAfterAnswer(() => mailer.send(mail), { afterAnswer: context.afterAnswer, logger: context.logger, what: "newsletter: the confirmation mail" });
}
