import type { Logger } from "pino";
import type { AccountResult, AccountServices } from "./account-services.server.ts";
import type { LoginInput } from "./account-schema.ts";
import { ACCOUNT_LIMIT_RULES, hitAll } from "./attempt-limiter.server.ts";

/**
 * Log in with email and password. An unknown email and a wrong password give the same answer
 * (better-auth also spends the same hashing time on both), so the form reveals no accounts.
 */
export async function signIn(
  ctx: { accounts: AccountServices; logger: Logger },
  input: LoginInput,
  opts: { clientIp: string; headers: Headers },
): Promise<AccountResult> {
  const email = input.email.toLowerCase();
  const verdict = await hitAll(ctx.accounts.limiter, [
    [`login:ip:${opts.clientIp}`, ACCOUNT_LIMIT_RULES.loginPerIp],
    [`login:email:${email}`, ACCOUNT_LIMIT_RULES.loginPerEmail],
  ]);
  if (!verdict.allowed) return { ok: false, code: "account.rate_limited", retryAfterSeconds: verdict.retryAfterSeconds };

  let res: Response;
  try {
    res = await ctx.accounts.auth.api.signInEmail({ body: { email, password: input.password }, headers: opts.headers, asResponse: true });
  } catch (err) {
    ctx.logger.error({ err }, "login failed unexpectedly");
    return { ok: false, code: "account.unavailable" };
  }
  if (res.ok) return { ok: true, setCookies: res.headers.getSetCookie() };
  if (res.status >= 500) {
    ctx.logger.error({ status: res.status }, "login: auth service error");
    return { ok: false, code: "account.unavailable" };
  }
  return { ok: false, code: "account.invalid_credentials" };
}
