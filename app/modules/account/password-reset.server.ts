import type { Logger } from "pino";
import type { AccountServices } from "./account-services.server.ts";
import { ACCOUNT_LIMIT_RULES, hitAll } from "./attempt-limiter.server.ts";

/**
 * Mail a reset link. The answer is the same whether or not the email has an account (better-auth
 * does no mail and no error for an unknown one), so this form reveals no accounts either.
 */
export async function requestPasswordReset(
  ctx: { accounts: AccountServices; logger: Logger },
  email: string,
  opts: { clientIp: string },
): Promise<{ ok: true } | { ok: false; code: "account.rate_limited" | "account.unavailable"; retryAfterSeconds?: number }> {
  const normalised = email.toLowerCase();
  const verdict = await hitAll(ctx.accounts.limiter, [
    [`reset:ip:${opts.clientIp}`, ACCOUNT_LIMIT_RULES.resetPerIp],
    [`reset:email:${normalised}`, ACCOUNT_LIMIT_RULES.resetPerEmail],
  ]);
  if (!verdict.allowed) return { ok: false, code: "account.rate_limited", retryAfterSeconds: verdict.retryAfterSeconds };
  try {
    await ctx.accounts.auth.api.requestPasswordReset({ body: { email: normalised } });
    return { ok: true };
  } catch (err) {
    ctx.logger.error({ err }, "password reset mail failed");
    return { ok: false, code: "account.unavailable" };
  }
}

/** Set a new password from a mailed token; every session of the account ends. */
export async function resetPassword(
  ctx: { accounts: AccountServices; logger: Logger },
  input: { token: string; password: string },
): Promise<{ ok: true } | { ok: false; code: "account.reset_link_invalid" | "account.unavailable" }> {
  let res: Response;
  try {
    res = await ctx.accounts.auth.api.resetPassword({ body: { token: input.token, newPassword: input.password }, asResponse: true });
  } catch (err) {
    ctx.logger.error({ err }, "password reset failed unexpectedly");
    return { ok: false, code: "account.unavailable" };
  }
  if (res.ok) return { ok: true };
  if (res.status >= 500) return { ok: false, code: "account.unavailable" };
  return { ok: false, code: "account.reset_link_invalid" };
}
