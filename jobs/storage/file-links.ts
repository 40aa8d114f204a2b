import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed, expiring links to a finished job's file (HMAC-SHA256). The token names the job and
 * its owner, so the file route can check the signature and expiry before touching storage and
 * then confirm the signed-in user is the owner; a link cannot be edited to another job.
 */
export interface FileLinkClaims {
  jobId: string;
  userId: string;
  expiresAt: Date;
}

const MAX_TOKEN = 2048;

function mac(secret: string, body: string): Buffer {
  // its own prefix: a download link's signature is never a valid file link's
  return createHmac("sha256", secret).update(`vidfetch-job-file.v1.${body}`).digest();
}

export function signFileLink(claims: FileLinkClaims, secret: string): string {
  if (!secret) throw new TypeError("file link: the signing secret is empty");
  if (!claims.jobId || !claims.userId) throw new TypeError("file link: jobId and userId are required");
  const exp = Math.floor(claims.expiresAt.getTime() / 1000);
  if (!Number.isSafeInteger(exp)) throw new TypeError("file link: expiresAt is not a valid date");
  const body = Buffer.from(JSON.stringify({ j: claims.jobId, u: claims.userId, e: exp })).toString("base64url");
  return `${body}.${mac(secret, body).toString("base64url")}`;
}

/**
 * The job and owner a token names, or null when it is malformed, forged, edited or expired.
 * The signature is compared in constant time, as text (another base64url spelling of the same
 * bytes is refused like any other edit).
 */
export function verifyFileLink(token: string, secret: string, now: Date = new Date()): { jobId: string; userId: string } | null {
  if (!secret || typeof token !== "string" || token.length > MAX_TOKEN) return null;
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "utf8");
  const expected = Buffer.from(mac(secret, body).toString("base64url"), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let raw: { j?: unknown; u?: unknown; e?: unknown };
  try {
    raw = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as typeof raw;
  } catch {
    return null;
  }
  if (typeof raw.j !== "string" || !raw.j || typeof raw.u !== "string" || !raw.u || typeof raw.e !== "number") return null;
  if (raw.e * 1000 <= now.getTime()) return null;
  return { jobId: raw.j, userId: raw.u };
}
