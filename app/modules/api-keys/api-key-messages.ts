import { CatalogueError, defineErrors, TOO_MANY_REQUESTS } from "#common/error-catalogue.ts";

/** What the API key routes and a request made with a key answer (issue 31 §1). Browser-safe. */
export const KEY_ERRORS = defineErrors({
  "key.invalid": { status: 401, message: "This API key is not valid, or it has been revoked." },
  "key.login_required": { status: 401, message: "Log in to manage your API keys." },
  "key.session_only": { status: 403, message: "This needs you to be signed in: an API key cannot do it." },
  "key.invalid_name": { status: 400, message: "Give the key a name of 1 to 60 characters." },
  "key.too_many": { status: 400, message: "You have 10 API keys, the most an account can hold. Revoke one to create another." },
  "key.not_found": { status: 404, message: "We couldn't find that API key." },
  "key.rate_limited": { status: 429, message: TOO_MANY_REQUESTS },
});

export type KeyErrorCode = keyof typeof KEY_ERRORS;

export class KeyError extends CatalogueError<KeyErrorCode> {
  static override readonly kind = "key";
  constructor(code: KeyErrorCode) {
    super(KeyError.kind, code, KEY_ERRORS[code].status, KEY_ERRORS[code].message);
  }
}
