import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { authAccounts, sessions, users, verifications } from "#db/schema/index.ts";
import { PASSWORD_LIMITS } from "./account-schema.ts";
import type { Mailer } from "./mailer.server.ts";

/** Every better-auth cookie is named `<prefix>.…` (`__Secure-<prefix>.…` over https); the host's page cache looks for them. */
export const SESSION_COOKIE_PREFIX = "vidfetch";

export interface AuthOptions {
  db: Database;
  /** AUTH_SECRET, configured or generated into DATA_DIR */
  secret: string;
  /** PUBLIC_URL: the base of better-auth's own URLs and the one trusted origin */
  publicUrl: string;
  logger: Logger;
  /** password-reset mail (SMTP or the outbox) */
  mailer: Mailer;
  siteName?: string;
}

/**
 * Credential entry goes through our form actions (login, signup), where the per-IP and
 * per-email limiter sits; better-auth's raw HTTP endpoints for the same thing are switched off
 * so nobody can go around that limiter. The server API (`auth.api.*`) is not affected.
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
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
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
    // Our own limiter guards credential entry (see attempt-limiter.server.ts); better-auth's
    // reads the client address from headers anyone can send, so it stays off.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
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
    `Welcome to ${siteName}. Please confirm this is your email address by opening this link within 24 hours:`,
    "",
    link,
    "",
    "If you did not create an account, ignore this message.",
  ].join("\n");
}
