import { data, redirect } from "react-router";
import type { FormResult } from "#app/lib/forms/form-problem.ts";
import { ACCOUNT_ERRORS } from "./account-messages.ts";
import type { AccountErrorCode } from "./account-services.server.ts";

/** Map a use-case's error code to the form's answer: one sentence, its HTTP status. */
export function accountFailure<F extends string>(code: AccountErrorCode, values: Partial<Record<F, string>>, retryAfterSeconds?: number) {
  const { status, message } = ACCOUNT_ERRORS[code];
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
