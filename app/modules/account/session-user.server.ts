import type { AccountServices, SessionUser } from "./account-services.server.ts";

/** Does the request carry our session cookie at all? Saves a database round trip for visitors. */
export function hasSessionCookie(request: Request): boolean {
  return SESSION_COOKIE.test(request.headers.get("cookie") ?? "");
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?vidfetch\.session_token=/;

/** The signed-in user of this request, or null (no cookie, a bad signature, an expired session). */
export async function getSessionUser(accounts: AccountServices, request: Request): Promise<SessionUser | null> {
  return sessionUserFromCookie(accounts, request.headers.get("cookie"));
}

/**
 * The same from a raw Cookie header (the API host reads it from Express's request). Once a day
 * better-auth pushes an active session's expiry forward and answers with a fresh cookie;
 * `onRefresh` receives those `Set-Cookie` lines so a page can send them on, or the browser's
 * cookie would still expire 30 days after the login however active the user is.
 */
export async function sessionUserFromCookie(
  accounts: AccountServices,
  cookie: string | null | undefined,
  opts: { onRefresh?: (setCookies: string[]) => void } = {},
): Promise<SessionUser | null> {
  if (!cookie || !SESSION_COOKIE.test(cookie)) return null;
  const { headers: answer, response: session } = await accounts.auth.api.getSession({ headers: new Headers({ cookie }), returnHeaders: true });
  const setCookies = answer.getSetCookie();
  if (setCookies.length > 0) opts.onRefresh?.(setCookies);
  if (!session) return null;
  return { id: session.user.id, name: session.user.name, email: session.user.email, emailVerified: session.user.emailVerified };
}

/** End this browser's session: the row is deleted and the cookies cleared. */
export async function signOut(accounts: AccountServices, request: Request): Promise<{ setCookies: string[] }> {
  const headers = new Headers({ cookie: request.headers.get("cookie") ?? "" });
  const res = await accounts.auth.api.signOut({ headers, asResponse: true });
  return { setCookies: res.headers.getSetCookie() };
}
