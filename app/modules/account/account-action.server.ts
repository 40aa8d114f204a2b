import { data, redirect } from "react-router";
import type { FormResult } from "#app/lib/forms/form-problem.ts";
import { ACCOUNT_MESSAGES } from "./account-messages.ts";
import type { AccountErrorCode } from "./account-services.server.ts";

/** Map a use-case's error code to the form's answer: one sentence, its HTTP status. */
export function accountFailure<F extends string>(code: AccountErrorCode, values: Partial<Record<F, string>>, retryAfterSeconds?: number) {
  const message = {
    "account.rate_limited": ACCOUNT_MESSAGES.rateLimited,
    "account.invalid_credentials": ACCOUNT_MESSAGES.invalidCredentials,
    "account.signup_failed": ACCOUNT_MESSAGES.signupFailed,
    "account.weak_password": ACCOUNT_MESSAGES.passwordTooWeak,
    "account.unavailable": ACCOUNT_MESSAGES.unavailable,
  }[code];
  const status = { "account.rate_limited": 429, "account.invalid_credentials": 401, "account.signup_failed": 400, "account.weak_password": 400, "account.unavailable": 503 }[code];
  const headers: HeadersInit = retryAfterSeconds ? { "retry-after": String(retryAfterSeconds) } : {};
  // a refused password is the password field's problem; the others are the whole form's
  const fields = (code === "account.weak_password" ? ["password"] : []) as F[];
  return data<FormResult<F>>({ ok: false, title: "Error", message, fields, values }, { status, headers });
}

/** Redirect on success, forwarding better-auth's Set-Cookie lines (session, or its clearing). */
export function redirectWithCookies(to: string, setCookies: string[]): Response {
  const headers = new Headers();
  for (const c of setCookies) headers.append("set-cookie", c);
  return redirect(to, { headers });
}
