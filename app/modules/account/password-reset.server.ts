import type { Logger } from "pino";
import type { AccountServices } from "./account-services.server.ts";
import { hitAll } from "#app/lib/attempt-limiter.server.ts";
import { ACCOUNT_LIMIT_RULES } from "./account-limit-rules.ts";
import { runAfterAnswer, type AfterAnswer } from "./background-work.server.ts";
import { weakPasswordReason } from "./password-strength.server.ts";

/**
 * Mail a reset link. The answer is the same whether or not the email has an account, and it is
 * given before the account is even looked up (the lookup and the mail start once it is out), so neither
 * its words nor its timing reveal an account (issue 27 §10).
 */
export async function requestPasswordReset(
  ctx: { accounts: AccountServices; logger: Logger; afterAnswer?: AfterAnswer },
  email: string,
  opts: { clientIp: string },
): Promise<{ ok: true } | { ok: false; code: "account.rate_limited" | "account.unavailable"; retryAfterSeconds?: number }> {
  const normalised = email.toLowerCase();
  const verdict = await hitAll(ctx.accounts.limiter, [
    [`reset:ip:${opts.clientIp}`, ACCOUNT_LIMIT_RULES.resetPerIp],
    [`reset:email:${normalised}`, ACCOUNT_LIMIT_RULES.resetPerEmail],
  ]);
  if (!verdict.allowed) return { ok: false, code: "account.rate_limited", retryAfterSeconds: verdict.retryAfterSeconds };
  runAfterAnswer(() => ctx.accounts.auth.api.requestPasswordReset({ body: { email: normalised } }), { afterAnswer: ctx.afterAnswer, logger: ctx.logger, what: "password reset mail" });
  return { ok: true };
}

/**
 * Set a new password from a mailed token; every session of the account ends. The link came by
 * mail, so its address is confirmed too (an account that never opened its signup link can log
 * in after a reset).
 */
export async function resetPassword(
  ctx: { accounts: AccountServices; logger: Logger },
  input: { token: string; password: string },
): Promise<{ ok: true } | { ok: false; code: "account.reset_link_invalid" | "account.weak_password" | "account.unavailable" }> {
  if (weakPasswordReason(input.password)) return { ok: false, code: "account.weak_password" };
  let res: Response;
  let userId: string | undefined;
  try {
    const context = await ctx.accounts.auth.$context;
    userId = (await context.internalAdapter.findVerificationValue(`reset-password:${input.token}`))?.value;
    res = await ctx.accounts.auth.api.resetPassword({ body: { token: input.token, newPassword: input.password }, asResponse: true });
    if (res.ok && userId) await context.internalAdapter.updateUser(userId, { emailVerified: true });
  } catch (err) {
    ctx.logger.error({ err }, "password reset failed unexpectedly");
    return { ok: false, code: "account.unavailable" };
  }
  if (res.ok) return { ok: true };
  if (res.status >= 500) return { ok: false, code: "account.unavailable" };
  return { ok: false, code: "account.reset_link_invalid" };
}
