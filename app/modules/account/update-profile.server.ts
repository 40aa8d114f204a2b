import type { Logger } from "pino";
import type { AccountServices, SessionUser } from "./account-services.server.ts";
import { ACCOUNT_LIMIT_RULES } from "./account-limit-rules.ts";

export type UpdateProfileResult =
  | { ok: true; emailChangeSentTo: string | null }
  | { ok: false; code: "account.rate_limited" | "account.unavailable"; retryAfterSeconds?: number };

/**
 * Save the Settings form through better-auth's server API: the name at once; a new email only
 * after the link mailed to it is opened (until then the account keeps its current email). The
 * answer is the same whether or not another account has that email (no enumeration).
 */
export async function updateProfile(
  ctx: { accounts: AccountServices; logger: Logger },
  user: SessionUser,
  input: { name: string; email: string },
  headers: Headers,
): Promise<UpdateProfileResult> {
  const newEmail = input.email.toLowerCase();
  const changesEmail = newEmail !== user.email.toLowerCase();
  if (changesEmail) {
    const verdict = await ctx.accounts.limiter.hit(`email-change:user:${user.id}`, ACCOUNT_LIMIT_RULES.emailChangePerUser);
    if (!verdict.allowed) return { ok: false, code: "account.rate_limited", retryAfterSeconds: verdict.retryAfterSeconds };
  }
  try {
    if (input.name !== user.name) await ctx.accounts.auth.api.updateUser({ body: { name: input.name }, headers });
    if (changesEmail) await ctx.accounts.auth.api.changeEmail({ body: { newEmail, callbackURL: "/dashboard?tab=settings" }, headers });
    return { ok: true, emailChangeSentTo: changesEmail ? newEmail : null };
  } catch (err) {
    ctx.logger.error({ err }, "profile update failed");
    return { ok: false, code: "account.unavailable" };
  }
}
