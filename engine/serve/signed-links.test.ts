import { describe, expect, it } from "vitest";
import { deflateRawSync } from "node:zlib";
import { isBulkToken, MAX_BULK_TOKEN_CHARS, signBulk, signDownload, verifyBulk, verifyDownload, type BulkClaims, type DownloadClaims } from "./signed-links.ts";

const secret = "test-secret-0123456789";
const claims: DownloadClaims = {
  id: "dl_1",
  url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  format: "mp4-720",
  caller: "anonymous",
  exp: 2_000_000_000,
};

describe("signed download links", () => {
  it("round-trips the claims", () => {
    const token = signDownload(secret, claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyDownload(secret, token, 1_000_000_000_000)).toEqual({ ...claims, plan: undefined });
  });

  it("rejects an expired link with download.link_expired", () => {
    const token = signDownload(secret, claims);
    expect(() => verifyDownload(secret, token, claims.exp * 1000)).toThrow(expect.objectContaining({ code: "download.link_expired", status: 410 }));
  });

  it("rejects tampering with download.link_invalid", () => {
    const token = signDownload(secret, claims);
    const [body, sig] = token.split(".") as [string, string];
    const edited = Buffer.from(JSON.stringify({ d: "dl_1", u: claims.url, f: "mp4-2160", c: "premium", e: claims.exp })).toString("base64url");
    const cases = [
      `${edited}.${sig}`,
      `${body}.${sig.slice(0, -2)}`,
      `${body}.${sig}x`,
      `${body}`,
      "",
      "a.b.c",
      `${body}.${Buffer.alloc(32).toString("base64url")}`,
    ];
    for (const bad of cases) {
      expect(() => verifyDownload(secret, bad, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid", status: 403 }));
    }
    expect(() => verifyDownload("another-secret", token, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
  });

  it("refuses another spelling of the same signature (base64url's unused last bits)", () => {
    const token = signDownload(secret, claims);
    const [body, sig] = token.split(".") as [string, string];
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(sig.at(-1)!);
    // 32 bytes in 43 characters: the last character's two low bits are not part of the bytes
    const respelled = `${body}.${sig.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(respelled.split(".")[1]!, "base64url")).toEqual(Buffer.from(sig, "base64url"));
    expect(() => verifyDownload(secret, respelled, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
  });

  it("keeps the caller's plan", () => {
    const token = signDownload(secret, { ...claims, caller: "premium", plan: "pro" });
    expect(verifyDownload(secret, token, 0)).toMatchObject({ caller: "premium", plan: "pro" });
  });

  it("carries the account that created the link, and refuses a non-string account", () => {
    const token = signDownload(secret, { ...claims, caller: "free", userId: "user_123" });
    expect(verifyDownload(secret, token, 0)).toMatchObject({ caller: "free", userId: "user_123" });
    expect(verifyDownload(secret, signDownload(secret, claims), 0).userId).toBeUndefined();
  });
});

describe("signed bulk links", () => {
  const bulk: BulkClaims = {
    id: "dl_2",
    urls: Array.from({ length: 50 }, (_, i) => `https://www.youtube.com/watch?v=video${String(i).padStart(6, "0")}`),
    format: "mp4-720",
    caller: "premium",
    plan: "ultimate",
    userId: "u1",
    exp: 2_000_000_000,
  };

  it("round-trip 50 links in a token short enough for a URL, told apart from single links", () => {
    const token = signBulk(secret, bulk);
    expect(isBulkToken(token)).toBe(true);
    expect(isBulkToken(signDownload(secret, claims))).toBe(false);
    expect(token.length).toBeLessThan(MAX_BULK_TOKEN_CHARS);
    expect(verifyBulk(secret, token, 1_000_000_000_000)).toEqual(bulk);
  });

  it("carry a profile's subtitle language and file-name template for every file, signed with the rest", () => {
    const profiled: BulkClaims = { ...bulk, format: "srt", language: "de", template: "{channel} - {title}" };
    expect(verifyBulk(secret, signBulk(secret, profiled), 1_000_000_000_000)).toEqual(profiled);
    const token = signBulk(secret, profiled);
    const sig = token.split(".").at(-1);
    const retitled = deflateRawSync(JSON.stringify({ d: "dl_2", u: bulk.urls, f: "srt", c: "premium", p: "ultimate", a: "u1", e: bulk.exp, l: "de", t: "{id}" })).toString("base64url");
    expect(() => verifyBulk(secret, `zip.${retitled}.${sig}`, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
  });

  it("refuse an edited list, a single link's token, a token of the other kind's signature and an expired one", () => {
    const token = signBulk(secret, bulk);
    const sig = token.split(".").at(-1);
    const edited = deflateRawSync(JSON.stringify({ d: "dl_2", u: ["https://www.youtube.com/watch?v=other000000"], f: "mp4-2160", c: "premium", p: "ultimate", e: bulk.exp })).toString("base64url");
    expect(() => verifyBulk(secret, `zip.${edited}.${sig}`, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
    expect(() => verifyBulk(secret, signDownload(secret, claims), 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
    expect(() => verifyDownload(secret, token, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
    expect(() => verifyBulk("another-secret", token, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
    expect(() => verifyBulk(secret, token, bulk.exp * 1000)).toThrow(expect.objectContaining({ code: "download.link_expired" }));
  });
});
