import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { optionsClaim, optionsFromClaim } from "../media/options/media-options.ts";
import { signBulk, signDownload, verifyBulk, verifyDownload, type DownloadClaims } from "./signed-links.ts";

const secret = "test-secret-0123456789";
const claims: DownloadClaims = { id: "dl_1", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", format: "mp3-128", caller: "anonymous", exp: 2_000_000_000 };

describe("media options in a signed link", () => {
  it("a link carries only what differs from the defaults, so a default link is as before", () => {
    expect(optionsClaim(undefined)).toBeUndefined();
    expect(optionsClaim({ tags: true })).toBeUndefined();
    expect(signDownload(secret, { ...claims, options: { tags: true } })).toBe(signDownload(secret, claims));
    expect(optionsClaim({ tags: false })).toEqual({ g: 0 });
    expect(optionsFromClaim(undefined)).toEqual({ tags: true });
    expect(optionsFromClaim({ g: 0 })).toEqual({ tags: false });
  });

  it("round-trips a bare download through a single and a bulk link", () => {
    expect(verifyDownload(secret, signDownload(secret, { ...claims, options: { tags: false } }), 0).options).toEqual({ tags: false });
    expect(verifyDownload(secret, signDownload(secret, claims), 0).options).toBeUndefined();
    const { urls, options } = verifyBulk(secret, signBulk(secret, { ...claims, urls: [claims.url], options: { tags: false } }), 0);
    expect(urls).toEqual([claims.url]);
    expect(options).toEqual({ tags: false });
  });

  it("the signature covers the options: a link edited to drop them is refused", () => {
    const token = signDownload(secret, { ...claims, options: { tags: false } });
    const [, sig] = token.split(".") as [string, string];
    const edited = Buffer.from(JSON.stringify({ d: claims.id, u: claims.url, f: claims.format, c: claims.caller, e: claims.exp })).toString("base64url");
    expect(() => verifyDownload(secret, `${edited}.${sig}`, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
  });

  it("a correctly signed payload with options we never write is refused", () => {
    for (const o of [{ g: 1 }, { g: 0, x: 1 }, "bare", [0]]) {
      const body = Buffer.from(JSON.stringify({ d: claims.id, u: claims.url, f: claims.format, c: claims.caller, e: claims.exp, o })).toString("base64url");
      const sig = createHmac("sha256", secret).update(`vidfetch-dl.v1.${body}`).digest("base64url");
      expect(() => verifyDownload(secret, `${body}.${sig}`, 0)).toThrow(expect.objectContaining({ code: "download.link_invalid" }));
    }
  });
});
