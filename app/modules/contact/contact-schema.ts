import { defineErrors } from "#common/error-catalogue.ts";
import { z } from "#app/lib/zod.ts";
import { storedFormParser, type StoredFormMessages } from "#app/modules/stored-form/stored-form-schema.ts";

/**
 * The contact form (spec §3 "Contact form", §5 "Contact"): one schema for the browser and the
 * server. Name, email and message are required, subject is optional. `website` is a honeypot:
 * hidden from people, filled in by bots.
 */
export const CONTACT_MESSAGES = {
  required: "Please fill out all required fields",
  invalidEmail: "Please enter a valid email address",
  tooLong: "Your message is too long. Please keep it under 5,000 characters.",
  sent: { title: "Message sent", description: "We've received your message and will respond soon!" },
  failed: { title: "Error", description: "There was a problem sending your message. Please try again." },
} as const satisfies StoredFormMessages;

/** The form's failure code (page-only: the page shows `CONTACT_MESSAGES.failed`). */
export const CONTACT_ERRORS = defineErrors({
  "contact.store_failed": { status: 500, message: CONTACT_MESSAGES.failed.description },
});
export type ContactErrorCode = keyof typeof CONTACT_ERRORS;

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

const required = (max: number, tooLong: string = CONTACT_MESSAGES.tooLong) =>
  z.string({ error: CONTACT_MESSAGES.required }).trim().min(1, CONTACT_MESSAGES.required).max(max, tooLong);

export const contactSchema = z.object({
  name: required(CONTACT_LIMITS.name, "Please keep your name under 100 characters."),
  email: required(CONTACT_LIMITS.email, CONTACT_MESSAGES.invalidEmail).pipe(z.email(CONTACT_MESSAGES.invalidEmail)),
  subject: z.string().trim().max(CONTACT_LIMITS.subject, "Please keep the subject under 200 characters.").default(""),
  message: required(CONTACT_LIMITS.message),
  website: z.string().default(""),
});

export type ContactInput = z.output<typeof contactSchema>;
export type ContactField = "name" | "email" | "subject" | "message";

/** In the order the form shows them (the action sends them back after a failed post). */
export const CONTACT_FIELDS = ["name", "email", "subject", "message"] as const satisfies readonly ContactField[];

export const parseContactForm = storedFormParser<typeof contactSchema, ContactField>(contactSchema, CONTACT_MESSAGES);
