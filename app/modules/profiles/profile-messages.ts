import { defineErrors } from "#common/error-catalogue.ts";

/** What the profile routes answer (issue 31 §2). Browser-safe. */
export const PROFILE_ERRORS = defineErrors({
  "profile.login_required": { status: 401, message: "Log in to manage your download profiles." },
  "profile.invalid": { status: 400, message: "Give the profile a name of 1 to 60 characters and one of the formats on offer." },
  "profile.too_many": { status: 400, message: "You have 20 profiles, the most an account can hold. Delete one to create another." },
  "profile.not_found": { status: 404, message: "We couldn't find that profile." },
});

export type ProfileErrorCode = keyof typeof PROFILE_ERRORS;

export class ProfileError extends Error {
  constructor(
    readonly code: ProfileErrorCode,
    message?: string,
  ) {
    super(message ?? PROFILE_ERRORS[code].message);
  }
  get status(): number {
    return PROFILE_ERRORS[this.code].status;
  }
}
