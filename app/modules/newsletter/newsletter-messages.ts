/** The newsletter endpoint's answers (kept apart from the schema so pages can show them without zod). */
export const NEWSLETTER_MESSAGES = {
  subscribed: "Thanks for subscribing! We'll email you when new articles are published.",
  invalidEmail: "Please enter a valid email address",
  failed: "There was a problem subscribing. Please try again.",
} as const;

export type NewsletterOutcome = keyof typeof NEWSLETTER_MESSAGES;

export function isNewsletterOutcome(value: string | null): value is NewsletterOutcome {
  return value !== null && Object.hasOwn(NEWSLETTER_MESSAGES, value);
}
