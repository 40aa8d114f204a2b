import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The signed links in newsletter mail: `<subscriber id>.<expiry>.<signature>`. The signature
 * (HMAC-SHA256) covers the purpose, the id and the expiry, so a link can be neither forged nor
 * turned from one purpose into the other, and no id is ever looked up unless its link verifies.
 * Its key is derived from the server's secret for this purpose only: the same secret signs
 * download links and keys address hashes, and none of them can stand in for another.
 */
export type NewsletterTokenPurpose = "confirm" | "unsubscribe";

export type VerifiedToken = { ok: true; subscriberId: string } | { ok: false; reason: "invalid" | "expired" };

/** an unsubscribe link works as long as its row exists */
const NEVER = "never";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECONDS = /^[1-9][0-9]{0,11}$/;

export function newsletterKey(secret: string): Buffer {
  return createHmac("sha256", secret).update("vidfetch:newsletter-links").digest();
}

/** The key from the routes' settings (the host always passes the effective secret, generated or configured). */
export function newsletterKeyFrom(config: { DOWNLOAD_SIGNING_SECRET?: string | undefined }): Buffer {
  if (!config.DOWNLOAD_SIGNING_SECRET) throw new Error("DOWNLOAD_SIGNING_SECRET is missing: newsletter links cannot be signed");
  return newsletterKey(config.DOWNLOAD_SIGNING_SECRET);
}

function signature(key: Buffer, purpose: NewsletterTokenPurpose, id: string, expiry: string): Buffer {
  return createHmac("sha256", key).update(`${purpose}\n${id}\n${expiry}`).digest();
}

/** `expiresAt`: when the link stops working (confirm links); none: as long as the row exists. */
export function signNewsletterToken(key: Buffer, purpose: NewsletterTokenPurpose, subscriberId: string, expiresAt?: Date): string {
  const expiry = expiresAt ? String(Math.floor(expiresAt.getTime() / 1000)) : NEVER;
  return `${subscriberId}.${expiry}.${signature(key, purpose, subscriberId, expiry).toString("base64url")}`;
}

export function verifyNewsletterToken(key: Buffer, purpose: NewsletterTokenPurpose, token: string | null, now: Date = new Date()): VerifiedToken {
  const parts = (token ?? "").split(".");
  if (parts.length !== 3) return { ok: false, reason: "invalid" };
  const [id, expiry, sig] = parts as [string, string, string];
  if (!UUID.test(id) || !(expiry === NEVER || SECONDS.test(expiry))) return { ok: false, reason: "invalid" };
  // compared as text: base64url decoding ignores a last character's spare bits
  const given = Buffer.from(sig);
  const expected = Buffer.from(signature(key, purpose, id, expiry).toString("base64url"));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  // the purposes differ in whether they expire: a confirm link always does
  if (purpose === "confirm" && expiry === NEVER) return { ok: false, reason: "invalid" };
  if (expiry !== NEVER && Number(expiry) * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, subscriberId: id };
}
