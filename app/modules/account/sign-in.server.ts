import type { Logger } from "pino";
import type { AccountResult, AccountServices } from "./account-services.server.ts";
import type { LoginInput } from "./account-schema.ts";
import { hitAll } from "#app/lib/attempt-limiter.server.ts";
import { ACCOUNT_LIMIT_RULES } from "./account-limit-rules.ts";
import { runAfterAnswer, type AfterAnswer } from "./background-work.server.ts";

/**
 * Accounts created from this moment on are used for the first time through the link mailed to
 * their address (sign-up.server.ts). Older ones were signed in at signup, confirmed or not, and
 * keep logging in as they did (docs/decisions/038).
 */
export const CONFIRMATION_REQUIRED_SINCE = new Date("2026-11-26T00:00:00Z");

/**
 * Log in with email and password. An unknown email, a wrong password and an account whose email
 * is not confirmed yet give the same answer in about the same time (each costs one password
 * check), so the form reveals no accounts; a right password for an unconfirmed account mails the
 * link again. Attempts are limited per address, per address and account together (a guesser
 * slows down, the owner elsewhere does not: issue 27 §15), and loosely per account.
 */
export async function signIn(
  ctx: { accounts: AccountServices; logger: Logger; afterAnswer?: AfterAnswer },
  input: LoginInput,
  opts: { clientIp: string; headers: Headers; returnTo?: string },
): Promise<AccountResult> {
  const email = input.email.toLowerCase();
  const verdict = await hitAll(ctx.accounts.limiter, loginAttemptKeys(opts.clientIp, email));
  if (!verdict.allowed) return { ok: false, code: "account.rate_limited", retryAfterSeconds: verdict.retryAfterSeconds };

  let res: Response;
  try {
    if (await isUnconfirmedLogin(ctx, email, input.password, opts.returnTo ?? "/dashboard")) return { ok: false, code: "account.invalid_credentials" };
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

/** The keys one login attempt counts against. */
function loginAttemptKeys(clientIp: string, email: string): Array<[string, (typeof ACCOUNT_LIMIT_RULES)[keyof typeof ACCOUNT_LIMIT_RULES]]> {
  return [
    [`login:ip:${clientIp}`, ACCOUNT_LIMIT_RULES.loginPerIp],
    // no ":ip:" in the key: ACCOUNT_IP_LIMIT_SCALE loosens per-address budgets only
    [`login:pair:${email}|${clientIp}`, ACCOUNT_LIMIT_RULES.loginPerIpAndEmail],
    [`login:email:${email}`, ACCOUNT_LIMIT_RULES.loginPerEmail],
  ];
}

/**
 * Is this a login to an account that must confirm its email first? Then the password is checked
 * here (the same work the library does for a confirmed one), and when it is right the link goes
 * out again, after the answer.
 */
async function isUnconfirmedLogin(ctx: { accounts: AccountServices; logger: Logger; afterAnswer?: AfterAnswer }, email: string, password: string, returnTo: string): Promise<boolean> {
  const context = await ctx.accounts.auth.$context;
  const found = await context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
  if (!found || found.user.emailVerified || found.user.createdAt < CONFIRMATION_REQUIRED_SINCE) return false;
  const hash = found.accounts.find((a) => a.providerId === "credential")?.password;
  const right = hash ? await context.password.verify({ hash, password }) : (await context.password.hash(password), false);
  if (right) {
    runAfterAnswer(() => ctx.accounts.auth.api.sendVerificationEmail({ body: { email, callbackURL: returnTo } }), { afterAnswer: ctx.afterAnswer, logger: ctx.logger, what: "confirmation mail on login" });
  }
  return true;
}
