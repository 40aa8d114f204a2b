import { describe, expect, it } from "vitest";
import { newsletterKey, newsletterKeyFrom, signNewsletterToken, verifyNewsletterToken } from "./newsletter-token.server.ts";

const SECRET = "test-secret-test-secret-test-secret-1234";
const key = newsletterKey(SECRET);
const ID = "0b8f6f3e-2f6a-4c1e-9d51-6f1f4b0a9c21";
const NOW = new Date("2026-11-26T12:00:00Z");
const IN_A_WEEK = new Date("2026-12-03T12:00:00Z");

describe("newsletter link tokens", () => {
  it("verify for their purpose and carry the subscriber id", () => {
    expect(verifyNewsletterToken(key, "unsubscribe", signNewsletterToken(key, "unsubscribe", ID), NOW)).toEqual({ ok: true, subscriberId: ID });
    expect(verifyNewsletterToken(key, "confirm", signNewsletterToken(key, "confirm", ID, IN_A_WEEK), NOW)).toEqual({ ok: true, subscriberId: ID });
  });

  it("an unsubscribe link never expires; a confirm link does at its expiry", () => {
    const far = new Date("2040-01-01T00:00:00Z");
    expect(verifyNewsletterToken(key, "unsubscribe", signNewsletterToken(key, "unsubscribe", ID), far).ok).toBe(true);
    const confirm = signNewsletterToken(key, "confirm", ID, IN_A_WEEK);
    expect(verifyNewsletterToken(key, "confirm", confirm, new Date(IN_A_WEEK.getTime() - 1000)).ok).toBe(true);
    expect(verifyNewsletterToken(key, "confirm", confirm, IN_A_WEEK)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a token signed for the other purpose", () => {
    expect(verifyNewsletterToken(key, "confirm", signNewsletterToken(key, "unsubscribe", ID), NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyNewsletterToken(key, "unsubscribe", signNewsletterToken(key, "confirm", ID, IN_A_WEEK), NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a tampered id, expiry or signature", () => {
    const token = signNewsletterToken(key, "confirm", ID, IN_A_WEEK);
    const [id, expiry, sig] = token.split(".") as [string, string, string];
    const otherId = "1b8f6f3e-2f6a-4c1e-9d51-6f1f4b0a9c21";
    const later = String(Number(expiry) + 86_400);
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    // the last character's spare bits decode to the same bytes: the text itself must match
    const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const lastBits = sig.slice(0, -1) + ALPHABET[ALPHABET.indexOf(sig.at(-1)!) ^ 1];
    expect(Buffer.from(lastBits, "base64url").equals(Buffer.from(sig, "base64url"))).toBe(true);
    for (const tampered of [`${otherId}.${expiry}.${sig}`, `${id}.${later}.${sig}`, `${id}.${expiry}.${flipped}`, `${id}.${expiry}.${lastBits}`, `${id}.never.${sig}`]) {
      expect(verifyNewsletterToken(key, "confirm", tampered, NOW), tampered).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it.each([null, "", "garbage", "a.b.c", `${ID}..x`, `${ID}.never`, `${ID}.never.x.y`, `../${ID}.never.x`])("refuses the malformed token %j", (token) => {
    expect(verifyNewsletterToken(key, "unsubscribe", token, NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a token signed with another secret, or with the raw secret instead of the derived key", () => {
    const other = newsletterKey("another-secret-another-secret-another-1");
    expect(verifyNewsletterToken(key, "unsubscribe", signNewsletterToken(other, "unsubscribe", ID), NOW).ok).toBe(false);
    expect(verifyNewsletterToken(key, "unsubscribe", signNewsletterToken(Buffer.from(SECRET), "unsubscribe", ID), NOW).ok).toBe(false);
  });

  it("derives its key from the routes' secret and needs one", () => {
    expect(newsletterKeyFrom({ DOWNLOAD_SIGNING_SECRET: SECRET }).equals(key)).toBe(true);
    expect(key.equals(Buffer.from(SECRET))).toBe(false);
    expect(() => newsletterKeyFrom({})).toThrow(/DOWNLOAD_SIGNING_SECRET/);
  });
});
