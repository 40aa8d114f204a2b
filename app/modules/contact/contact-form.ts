import type { StoredFormLayout } from "#app/modules/stored-form/stored-form.tsx";
import { CONTACT_LIMITS, type ContactField } from "./contact-schema.ts";

/** The /contact-us form (spec §3 "Contact form"), drawn by StoredForm. */
export const CONTACT_FORM: StoredFormLayout<ContactField> = {
  action: "/contact-us",
  requiredNoteId: "contact-required-note",
  rows: [
    [
      { name: "name", id: "contact-name", label: "Name", required: true, autoComplete: "name", maxLength: CONTACT_LIMITS.name },
      { name: "email", id: "contact-email", label: "Email", required: true, type: "email", autoComplete: "email", maxLength: CONTACT_LIMITS.email },
    ],
    { name: "subject", id: "contact-subject", label: "Subject", maxLength: CONTACT_LIMITS.subject, placeholder: "e.g. A download stops at 50%" },
    {
      name: "message",
      id: "contact-message",
      label: "Message",
      required: true,
      rows: 6,
      maxLength: CONTACT_LIMITS.message,
      placeholder: "Tell us what happened. For a download problem, include the video link and the format you chose.",
    },
  ],
  submit: { idle: "Send Message", busy: "Sending...", ariaDisabled: true },
};
