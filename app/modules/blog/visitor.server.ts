import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

/**
 * An anonymous visitor id in an httpOnly cookie, so a like counts once per visitor per
 * comment and a report once per visitor. It identifies a browser, not a person. The cookie is
 * `<id>.<signature>`: only ids this server issued count, so a client cannot mint a new visitor
 * per request to inflate likes.
 */
export const VISITOR_COOKIE = "vf_visitor";
const ONE_YEAR = 60 * 60 * 24 * 365;
const VALUE_RE = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})$/;

// The host always passes its signing secret; a process key keeps a bare call safe, not lasting.
const processKey = randomBytes(32);

function signatureOf(id: string, secret: string | undefined): string {
  return createHmac("sha256", secret || processKey).update(`vf-visitor.${id}`).digest("base64url").slice(0, 22);
}

/** The cookie's value for an id (also what tests use to act as a returning visitor). */
export function visitorCookieValue(id: string, secret: string | undefined): string {
  return `${id}.${signatureOf(id, secret)}`;
}

/** The visitor id the request carries; a missing, malformed, unsigned or badly escaped cookie counts as none. */
export function readVisitorId(request: Request, secret: string | undefined): string | null {
  const header = request.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k !== VISITOR_COOKIE) continue;
    const m = VALUE_RE.exec(safeDecode(v.join("=")) ?? "");
    if (!m?.[1] || !m[2]) return null;
    const expected = Buffer.from(signatureOf(m[1], secret));
    const given = Buffer.from(m[2]);
    return given.length === expected.length && timingSafeEqual(given, expected) ? m[1] : null;
  }
  return null;
}

/** decodeURIComponent throws on a broken escape such as "%E0%A4%A"; that is just a bad cookie. */
function safeDecode(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** The visitor's id, creating one (and the Set-Cookie header to store it) when missing. */
export function ensureVisitorId(request: Request, opts: { secure: boolean; secret: string | undefined }): { visitorId: string; setCookie: string | null } {
  const existing = readVisitorId(request, opts.secret);
  if (existing) return { visitorId: existing, setCookie: null };
  const visitorId = randomUUID();
  const attrs = [`${VISITOR_COOKIE}=${visitorCookieValue(visitorId, opts.secret)}`, "Path=/", `Max-Age=${ONE_YEAR}`, "HttpOnly", "SameSite=Lax"];
  if (opts.secure) attrs.push("Secure");
  return { visitorId, setCookie: attrs.join("; ") };
}
