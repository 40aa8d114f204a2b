import type { StoredFormLayout } from "#app/modules/stored-form/stored-form.tsx";
import { PLATFORM_REQUEST_LIMITS, type PlatformRequestField } from "./platform-request-schema.ts";

/** "Request Platform Support" on /supported-sites, drawn by StoredForm. */
export const PLATFORM_REQUEST_FORM: StoredFormLayout<PlatformRequestField> = {
  action: "/supported-sites#request-platform",
  rows: [
    {
      name: "platformName",
      id: "platform-name",
      label: "Platform name",
      required: true,
      maxLength: PLATFORM_REQUEST_LIMITS.platformName,
      placeholder: "e.g. Bilibili, Rumble, SoundCloud",
    },
    {
      name: "email",
      id: "platform-email",
      label: "Your email (optional)",
      type: "email",
      autoComplete: "email",
      maxLength: PLATFORM_REQUEST_LIMITS.email,
      hint: { id: "platform-email-hint", text: "Only used to tell you when the platform is supported." },
    },
    {
      name: "details",
      id: "platform-details",
      label: "Additional details",
      rows: 4,
      maxLength: PLATFORM_REQUEST_LIMITS.details,
      placeholder: "An example link, and which formats you need (video, audio, subtitles).",
    },
  ],
  submit: { idle: "Submit Request", busy: "Submitting..." },
};
