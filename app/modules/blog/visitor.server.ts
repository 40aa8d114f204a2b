import { randomUUID } from "node:crypto";

/**
 * An anonymous visitor id in an httpOnly cookie, so a like counts once per visitor per
 * comment and a report once per visitor. It identifies a browser, not a person.
 */
export const VISITOR_COOKIE = "vf_visitor";
const ONE_YEAR = 60 * 60 * 24 * 365;
const ID_RE = /^[0-9a-f-]{36}$/;

export function readVisitorId(request: Request): string | null {
  const header = request.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === VISITOR_COOKIE) {
      const value = decodeURIComponent(v.join("="));
      return ID_RE.test(value) ? value : null;
    }
  }
  return null;
}

/** The visitor's id, creating one (and the Set-Cookie header to store it) when missing. */
export function ensureVisitorId(request: Request, opts: { secure: boolean }): { visitorId: string; setCookie: string | null } {
  const existing = readVisitorId(request);
  if (existing) return { visitorId: existing, setCookie: null };
  const visitorId = randomUUID();
  const attrs = [`${VISITOR_COOKIE}=${visitorId}`, "Path=/", `Max-Age=${ONE_YEAR}`, "HttpOnly", "SameSite=Lax"];
  if (opts.secure) attrs.push("Secure");
  return { visitorId, setCookie: attrs.join("; ") };
}
