import { z } from "#app/lib/zod.ts";
import { NEWSLETTER_MESSAGES } from "./newsletter-messages.ts";

/**
 * The blog's "Stay Updated" box posts here (POST /newsletter, form or JSON). `website` is the
 * honeypot. Addresses are stored trimmed and lower-cased so repeats are recognised.
 */
export { NEWSLETTER_MESSAGES } from "./newsletter-messages.ts";

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
