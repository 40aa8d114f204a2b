import type { Logger } from "pino";
import type { AccountResult, AccountServices } from "./account-services.server.ts";
import type { SignupInput } from "./account-schema.ts";
import { ACCOUNT_LIMIT_RULES, hitAll } from "./attempt-limiter.server.ts";

/**
 * Create an account and sign it in. Any refusal (the email is taken, better-auth rejects the
 * input) is the spec's single "Failed to create account".
 */
export async function signUp(
  ctx: { accounts: AccountServices; logger: Logger },
  input: SignupInput,
  opts: { clientIp: string; headers: Headers },
): Promise<AccountResult> {
  const email = input.email.toLowerCase();
  const verdict = await hitAll(ctx.accounts.limiter, [
    [`signup:ip:${opts.clientIp}`, ACCOUNT_LIMIT_RULES.signupPerIp],
    [`signup:email:${email}`, ACCOUNT_LIMIT_RULES.signupPerEmail],
  ]);
  if (!verdict.allowed) return { ok: false, code: "account.rate_limited", retryAfterSeconds: verdict.retryAfterSeconds };

  let res: Response;
  try {
    res = await ctx.accounts.auth.api.signUpEmail({ body: { name: input.name, email, password: input.password, callbackURL: "/dashboard" }, headers: opts.headers, asResponse: true });
  } catch (err) {
    ctx.logger.error({ err }, "signup failed unexpectedly");
    return { ok: false, code: "account.signup_failed" };
  }
  if (res.ok) return { ok: true, setCookies: res.headers.getSetCookie() };
  if (res.status >= 500) ctx.logger.error({ status: res.status }, "signup: auth service error");
  return { ok: false, code: "account.signup_failed" };
}
