import { CatalogueError, defineErrors } from "#common/error-catalogue.ts";

/** What the profile routes answer (issue 31 §2). Browser-safe. */
export const PROFILE_ERRORS = defineErrors({
  "profile.login_required": { status: 401, message: "Log in to manage your download profiles." },
  "profile.invalid": { status: 400, message: "Give the profile a name of 1 to 60 characters and one of the formats on offer." },
  "profile.too_many": { status: 400, message: "You have 20 profiles, the most an account can hold. Delete one to create another." },
  "profile.not_found": { status: 404, message: "We couldn't find that profile." },
});

export type ProfileErrorCode = keyof typeof PROFILE_ERRORS;

export class ProfileError extends CatalogueError<ProfileErrorCode> {
  static override readonly kind = "profile";
  constructor(code: ProfileErrorCode, message?: string) {
    super(ProfileError.kind, code, PROFILE_ERRORS[code].status, message ?? PROFILE_ERRORS[code].message);
  }
}
