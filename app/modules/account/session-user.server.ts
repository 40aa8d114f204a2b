import type { AccountServices, SessionUser } from "./account-services.server.ts";

/** Does the request carry our session cookie at all? Saves a database round trip for visitors. */
export function hasSessionCookie(request: Request): boolean {
  return /(?:^|;\s*)(?:__Secure-)?vidfetch\.session_token=/.test(request.headers.get("cookie") ?? "");
}

/** The signed-in user of this request, or null (no cookie, a bad signature, an expired session). */
export async function getSessionUser(accounts: AccountServices, request: Request): Promise<SessionUser | null> {
  if (!hasSessionCookie(request)) return null;
  const headers = new Headers({ cookie: request.headers.get("cookie") ?? "" });
  const session = await accounts.auth.api.getSession({ headers });
  if (!session) return null;
  return { id: session.user.id, name: session.user.name, email: session.user.email, emailVerified: session.user.emailVerified };
}

/** End this browser's session: the row is deleted and the cookies cleared. */
export async function signOut(accounts: AccountServices, request: Request): Promise<{ setCookies: string[] }> {
  const headers = new Headers({ cookie: request.headers.get("cookie") ?? "" });
  const res = await accounts.auth.api.signOut({ headers, asResponse: true });
  return { setCookies: res.headers.getSetCookie() };
}
