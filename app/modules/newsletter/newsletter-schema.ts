import { z } from "zod";

/**
 * The blog's "Stay Updated" box posts here (POST /newsletter, form or JSON). `website` is the
 * honeypot. Addresses are stored trimmed and lower-cased so repeats are recognised.
 */
export const NEWSLETTER_MESSAGES = {
  subscribed: "Thanks for subscribing! We'll email you when new articles are published.",
  invalidEmail: "Please enter a valid email address",
  failed: "There was a problem subscribing. Please try again.",
} as const;

export const newsletterSchema = z.object({
  email: z
    .string({ error: NEWSLETTER_MESSAGES.invalidEmail })
    .trim()
    .toLowerCase()
    .max(254, NEWSLETTER_MESSAGES.invalidEmail)
    .pipe(z.email(NEWSLETTER_MESSAGES.invalidEmail)),
  website: z.string().default(""),
});

export type NewsletterInput = z.output<typeof newsletterSchema>;

/** The JSON the endpoint answers with. */
export type NewsletterResponse = { ok: true; message: string } | { ok: false; message: string };
