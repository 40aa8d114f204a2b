import type { Logger } from "pino";
import type { AttemptLimiter } from "#app/lib/attempt-limiter.server.ts";
import { ACCOUNT_LIMIT_RULES } from "./account-limit-rules.ts";
import type { Mailer } from "./mailer.server.ts";

/**
 * Every mail to one address counts against that address's hourly budget, whichever path sends it
 * (the forms' own limits, better-auth's verification and email-change mails, the note to the
 * owner of a taken address), so no path can flood an inbox (issue 27 §9). A mail over the budget
 * is dropped with a warning: the form that caused it answered already, and says the same either way.
 */
export function limitMailsPerAddress(mailer: Mailer, limiter: AttemptLimiter, logger: Logger): Mailer {
  const log = logger.child({ module: "mail" });
  return {
    async send(message) {
      const verdict = await limiter.hit(`mail:to:${message.to.trim().toLowerCase()}`, ACCOUNT_LIMIT_RULES.mailPerAddress);
      if (!verdict.allowed) {
        log.warn({ subject: message.subject }, "mail not sent: this address had its hourly share of mail");
        return;
      }
      await mailer.send(message);
    },
  };
}
