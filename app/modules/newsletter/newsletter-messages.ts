import { defineErrors } from "#common/error-catalogue.ts";

/** The newsletter endpoint's answers (kept apart from the schema so pages can show them without zod). */
export const NEWSLETTER_MESSAGES = {
  // the same words for a new, a repeated and a bot's address (no one learns who is subscribed)
  subscribed: "Thanks! Please check your inbox and open the link in our email to confirm your subscription. Already subscribed? Then there is nothing more to do.",
  invalidEmail: "Please enter a valid email address",
  failed: "There was a problem subscribing. Please try again.",
} as const;

/** The endpoint's failure code (page-only: the box shows `NEWSLETTER_MESSAGES.failed`). */
export const NEWSLETTER_ERRORS = defineErrors({
  "newsletter.store_failed": { status: 500, message: NEWSLETTER_MESSAGES.failed },
});
export type NewsletterErrorCode = keyof typeof NEWSLETTER_ERRORS;

export type NewsletterOutcome = keyof typeof NEWSLETTER_MESSAGES;

export function isNewsletterOutcome(value: string | null): value is NewsletterOutcome {
  return value !== null && Object.hasOwn(NEWSLETTER_MESSAGES, value);
}
