import type { AttemptLimiter } from "#app/lib/attempt-limiter.server.ts";
import type { Auth } from "./auth.server.ts";

/** What the account use-cases need, handed to routes through the router context. */
export interface AccountServices {
  auth: Auth;
  limiter: AttemptLimiter;
}

/** The signed-in person as pages see it: never more than name and email (and the id, server-side). */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

export type AccountErrorCode = "account.rate_limited" | "account.invalid_credentials" | "account.signup_failed" | "account.weak_password" | "account.unavailable";

export type AccountResult =
  | { ok: true; setCookies: string[] }
  | { ok: false; code: AccountErrorCode; retryAfterSeconds?: number };

/**
 * Headers for a server-side better-auth call: the browser's user agent and the client address
 * as Express resolved it (TRUST_PROXY), so the stored session records who signed in.
 */
export function authCallHeaders(request: Request, clientIp: string, opts: { withCookie?: boolean } = {}): Headers {
  const headers = new Headers();
  const ua = request.headers.get("user-agent");
  if (ua) headers.set("user-agent", ua.slice(0, 512));
  headers.set("x-forwarded-for", clientIp);
  const cookie = request.headers.get("cookie");
  if (opts.withCookie && cookie) headers.set("cookie", cookie);
  return headers;
}
