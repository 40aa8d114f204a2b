import type { Logger } from "pino";
import type { AccountServices } from "./account-services.server.ts";
import type { SignupInput } from "./account-schema.ts";
import { hitAll } from "#app/lib/attempt-limiter.server.ts";
import { ACCOUNT_LIMIT_RULES } from "./account-limit-rules.ts";
import { runAfterAnswer, type AfterAnswer } from "./background-work.server.ts";
import { weakPasswordReason } from "./password-strength.server.ts";

export type SignUpResult = { ok: true } | { ok: false; code: "account.rate_limited" | "account.weak_password"; retryAfterSeconds?: number };

/**
 * Ask for an account (issue 27 §16). The answer is "check your email" whether or not the address
 * already has an account, and it comes before any of that is looked at: the work runs after the
 * answer. A new address gets an account and a link that confirms it and logs in (to `returnTo`);
 * a taken one gets a note to its owner. Nothing signs in here, so neither the answer, its cookies
 * nor its timing tell an account apart.
 */
export async function signUp(
  ctx: { accounts: AccountServices; logger: Logger; afterAnswer?: AfterAnswer },
  input: SignupInput,
  opts: { clientIp: string; headers: Headers; returnTo: string },
): Promise<SignUpResult> {
  const email = input.email.toLowerCase();
  const verdict = await hitAll(ctx.accounts.limiter, [
    [`signup:ip:${opts.clientIp}`, ACCOUNT_LIMIT_RULES.signupPerIp],
    [`signup:email:${email}`, ACCOUNT_LIMIT_RULES.signupPerEmail],
  ]);
  if (!verdict.allowed) return { ok: false, code: "account.rate_limited", retryAfterSeconds: verdict.retryAfterSeconds };
  if (weakPasswordReason(input.password, { email, name: input.name })) return { ok: false, code: "account.weak_password" };
  runAfterAnswer(() => createOrNotify(ctx.accounts, { ...input, email }, opts), { afterAnswer: ctx.afterAnswer, logger: ctx.logger, what: "signup" });
  return { ok: true };
}

async function createOrNotify(accounts: AccountServices, input: SignupInput, opts: { headers: Headers; returnTo: string }): Promise<void> {
  const context = await accounts.auth.$context;
  const found = await context.internalAdapter.findUserByEmail(input.email, { includeAccounts: true });
  if (found?.accounts.some((a) => a.providerId === "credential")) {
    await accounts.auth.options.emailAndPassword.onExistingUserSignUp({ user: found.user });
    return;
  }
  // A user row without its password row: left by a signup cut short before signups were one
  // transaction (issue 27 §14). Nobody can log in to it; it gives way to this signup.
  if (found) await context.internalAdapter.deleteUser(found.user.id);
  const res = await accounts.auth.api.signUpEmail({
    body: { name: input.name, email: input.email, password: input.password, callbackURL: opts.returnTo },
    headers: opts.headers,
    asResponse: true,
  });
  if (!res.ok) throw new Error(`signup refused by the auth library: ${res.status}`);
  // The library signs a new account in at once (the server API's callers rely on that); this
  // form does not: the first session comes from the mailed link.
  const { token } = (await res.json()) as { token: string | null };
  if (token) await context.internalAdapter.deleteSession(token);
}
