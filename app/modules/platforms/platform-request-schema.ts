import { defineErrors } from "#common/error-catalogue.ts";
import { z } from "#app/lib/zod.ts";
import { storedFormParser, type StoredFormMessages } from "#app/modules/stored-form/stored-form-schema.ts";

/**
 * The "Request Platform Support" form on /supported-sites: one schema for the browser and the
 * server. Platform name is required; the email is optional but must be valid when given;
 * `website` is a honeypot.
 */
export const PLATFORM_REQUEST_MESSAGES = {
  required: "Please enter the name of the platform you would like us to support",
  invalidEmail: "Please enter a valid email address",
  tooLong: "Please keep your details under 2,000 characters.",
  sent: { title: "Request received", description: "Thanks! We've recorded your request and will consider it for a future update." },
  failed: { title: "Error", description: "There was a problem sending your request. Please try again." },
} as const satisfies StoredFormMessages;

/** The form's failure code (page-only: the page shows `PLATFORM_REQUEST_MESSAGES.failed`). */
export const PLATFORM_REQUEST_ERRORS = defineErrors({
  "platform_request.store_failed": { status: 500, message: PLATFORM_REQUEST_MESSAGES.failed.description },
});
export type PlatformRequestErrorCode = keyof typeof PLATFORM_REQUEST_ERRORS;

export const PLATFORM_REQUEST_LIMITS = { platformName: 100, email: 254, details: 2000 } as const;

export const platformRequestSchema = z.object({
  platformName: z
    .string({ error: PLATFORM_REQUEST_MESSAGES.required })
    .trim()
    .min(1, PLATFORM_REQUEST_MESSAGES.required)
    .max(PLATFORM_REQUEST_LIMITS.platformName, "Please keep the platform name under 100 characters."),
  email: z
    .string()
    .trim()
    .max(PLATFORM_REQUEST_LIMITS.email, PLATFORM_REQUEST_MESSAGES.invalidEmail)
    .default("")
    .pipe(z.union([z.literal(""), z.email(PLATFORM_REQUEST_MESSAGES.invalidEmail)]))
    .transform((v) => (v === "" ? null : v.toLowerCase())),
  details: z.string().trim().max(PLATFORM_REQUEST_LIMITS.details, PLATFORM_REQUEST_MESSAGES.tooLong).default(""),
  website: z.string().default(""),
});

export type PlatformRequestInput = z.output<typeof platformRequestSchema>;
export type PlatformRequestField = "platformName" | "email" | "details";

/** In the order the form shows them (the action sends them back after a failed post). */
export const PLATFORM_REQUEST_FIELDS = ["platformName", "email", "details"] as const satisfies readonly PlatformRequestField[];

export const parsePlatformRequestForm = storedFormParser<typeof platformRequestSchema, PlatformRequestField>(platformRequestSchema, PLATFORM_REQUEST_MESSAGES);
