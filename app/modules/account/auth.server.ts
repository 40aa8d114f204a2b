import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { authAccounts, sessions, users, verifications } from "#db/schema/index.ts";
import { ACCOUNT_MESSAGES } from "./account-messages.ts";
import { ACCOUNT_LIMITS, PASSWORD_LIMITS } from "./account-schema.ts";
import { runInBackground } from "./background-work.server.ts";
import type { Mailer } from "./mailer.server.ts";
import { weakPasswordReason } from "./password-strength.server.ts";

/** Every better-auth cookie is named `<prefix>.…` (`__Secure-<prefix>.…` over https); the host's page cache looks for them. */
export const SESSION_COOKIE_PREFIX = "vidfetch";

export interface AuthOptions {
  db: Database;
  /** AUTH_SECRET, configured or generated into DATA_DIR */
  secret: string;
  /** PUBLIC_URL: the base of better-auth's own URLs and the one trusted origin */
  publicUrl: string;
  logger: Logger;
  /** account mail: reset links, confirmation links, the note to a taken address's owner (SMTP or the outbox) */
  mailer: Mailer;
  siteName?: string;
}

/**
 * Credential entry goes through our form actions (login, signup), where the per-IP and
 * per-email limiter sits; better-auth's raw HTTP endpoints for the same thing are switched off
 * so nobody can go around that limiter (besides, server/auth-gate.ts lets only three of the
 * library's routes be reached at all). The server API (`auth.api.*`) is not affected.
 */
export const CREDENTIAL_HTTP_PATHS = ["/sign-in/email", "/sign-up/email"];

/**
 * better-auth on our Drizzle database (PGlite or PostgreSQL, same dialect). Email + password,
 * scrypt hashes (better-auth's default), sessions stored in the `sessions` table behind an
 * httpOnly, SameSite=Lax cookie that is Secure whenever the site is served over https.
 */
export function createAuth(opts: AuthOptions) {
  const secure = new URL(opts.publicUrl).protocol === "https:";
  const log = opts.logger.child({ module: "auth" });
  const siteName = opts.siteName ?? "VidFetch";
  return betterAuth({
    appName: siteName,
    baseURL: opts.publicUrl,
    basePath: "/api/auth",
    secret: opts.secret,
    trustedOrigins: [new URL(opts.publicUrl).origin],
    database: drizzleAdapter(opts.db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: authAccounts, verification: verifications },
      // a signup's user and password rows are written together or not at all (issue 27 §14)
      transaction: true,
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_LIMITS.min,
      maxPasswordLength: PASSWORD_LIMITS.max,
      autoSignIn: true,
      // Our own page takes the token (it works without JavaScript); better-auth's URL is unused.
      sendResetPassword: async ({ user, token }) => {
        const link = `${opts.publicUrl}/reset-password?${new URLSearchParams({ token }).toString()}`;
        await opts.mailer.send({ to: user.email, subject: `Reset your ${siteName} password`, text: resetMailText(siteName, user.name, link) });
      },
      resetPasswordTokenExpiresIn: 60 * 60,
      // whoever had the old password is logged out everywhere
      revokeSessionsOnPasswordReset: true,
      // Called by our signup (sign-up.server.ts) for an address that already has an account:
      // the form answers as for a new one, and the owner hears about it (issue 27 §16).
      onExistingUserSignUp: async ({ user }) => {
        await opts.mailer.send({ to: user.email, subject: `Someone tried to sign up to ${siteName} with your email`, text: existingAccountMailText(siteName, user.name, opts.publicUrl) });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // a new account is used for the first time through this link (sign-up.server.ts)
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      // better-auth's own GET /api/auth/verify-email checks the link, then back to the dashboard
      sendVerificationEmail: async ({ user, url }) => {
        await opts.mailer.send({ to: user.email, subject: `Confirm your email for ${siteName}`, text: verifyMailText(siteName, user.name, url) });
      },
    },
    // A new email takes effect only once the link mailed to it is opened (better-auth's
    // change-email verification; the verification mailer above sends it).
    user: { changeEmail: { enabled: true } },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    disabledPaths: CREDENTIAL_HTTP_PATHS,
    // Whatever path sets a password or writes an account field (our forms, the library's server
    // API, any endpoint enabled later), the same rules hold (issue 27 §3, §17).
    hooks: { before: createAuthMiddleware(async (ctx) => refuseWeakPassword(ctx.path, ctx.body)) },
    databaseHooks: {
      user: {
        create: { before: async (user) => void refuseOversizedUser(user) },
        update: { before: async (user) => void refuseOversizedUser(user) },
      },
      // the user agent comes from a request header (up to 16 KB); an address is short
      session: {
        create: {
          before: async (session) => ({ data: { ...session, userAgent: session.userAgent?.slice(0, 512) ?? null, ipAddress: session.ipAddress?.slice(0, 64) ?? null } }),
        },
      },
    },
    // Our own limiter guards credential entry (see attempt-limiter.server.ts); better-auth's
    // reads the client address from headers anyone can send, so it stays off.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      // mail goes out after the answer: a form answers in the same time whether or not it mailed
      backgroundTasks: { handler: (promise) => runInBackground(promise, log, "auth background task") },
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure, path: "/" },
    },
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        const method = level === "error" ? "error" : level === "warn" ? "warn" : level === "debug" ? "debug" : "info";
        log[method]({ details: args.length ? args : undefined }, message);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The body fields that carry a new password, per better-auth path. */
const NEW_PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
  "/set-password": "newPassword",
};

function refuseWeakPassword(path: string, body: unknown): void {
  const field = NEW_PASSWORD_FIELDS[path];
  if (!field || typeof body !== "object" || body === null) return;
  const fields = body as Record<string, unknown>;
  const password = fields[field];
  if (typeof password !== "string") return;
  const who = { email: typeof fields.email === "string" ? fields.email : undefined, name: typeof fields.name === "string" ? fields.name : undefined };
  if (weakPasswordReason(password, who)) throw new APIError("BAD_REQUEST", { code: "PASSWORD_TOO_WEAK", message: ACCOUNT_MESSAGES.passwordTooWeak });
}

/** Image URLs are not used by the product; a generous bound keeps one from weighing on every page. */
const IMAGE_URL_MAX = 2048;

/** The forms' limits, held for every write of a user row: a 50 MB name would be sent with every page. */
function refuseOversizedUser(user: { name?: unknown; email?: unknown; image?: unknown }): void {
  const tooLong = (v: unknown, max: number) => typeof v === "string" && v.length > max;
  if (tooLong(user.name, ACCOUNT_LIMITS.name) || tooLong(user.email, ACCOUNT_LIMITS.email) || tooLong(user.image, IMAGE_URL_MAX)) {
    throw new APIError("BAD_REQUEST", { code: "FIELD_TOO_LONG", message: ACCOUNT_MESSAGES.fieldTooLong });
  }
}

function existingAccountMailText(siteName: string, name: string, publicUrl: string): string {
  return [
    `Hello ${name},`,
    "",
    `Someone (hopefully you) tried to create a ${siteName} account with this email address, which already has one.`,
    `If it was you, log in at ${publicUrl}/login, or choose a new password at ${publicUrl}/forgot-password.`,
    "",
    "If it was not you, ignore this message: nothing has changed.",
  ].join("\n");
}

function resetMailText(siteName: string, name: string, link: string): string {
  return [
    `Hello ${name},`,
    "",
    `Someone (hopefully you) asked to reset the password of your ${siteName} account.`,
    "Open this link within one hour to choose a new password:",
    "",
    link,
    "",
    "If you did not ask for this, ignore this message: your password stays as it is.",
  ].join("\n");
}

function verifyMailText(siteName: string, name: string, link: string): string {
  return [
    `Hello ${name},`,
    "",
    `Please confirm this is your email address for ${siteName} by opening this link within 24 hours (it also logs you in):`,
    "",
    link,
    "",
    "If you did not ask for this, ignore this message.",
  ].join("\n");
}
