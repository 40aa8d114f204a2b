import { describe, expect, test } from "vitest";
import { signFileLink, verifyFileLink } from "./file-links.ts";

const secret = "s".repeat(40);
const now = new Date("2026-11-26T12:00:00Z");
const inAnHour = new Date(now.getTime() + 3600_000);

describe("job file links", () => {
  test("a signed link names its job and owner until it expires", () => {
    const token = signFileLink({ jobId: "job-1", userId: "user-1", expiresAt: inAnHour }, secret);
    expect(verifyFileLink(token, secret, now)).toEqual({ jobId: "job-1", userId: "user-1" });
    expect(verifyFileLink(token, secret, new Date(inAnHour.getTime() - 1000))).toEqual({ jobId: "job-1", userId: "user-1" });
    expect(verifyFileLink(token, secret, inAnHour)).toBeNull();
  });

  test("another secret, an edited payload or signature, or garbage is refused", () => {
    const token = signFileLink({ jobId: "job-1", userId: "user-1", expiresAt: inAnHour }, secret);
    expect(verifyFileLink(token, "t".repeat(40), now)).toBeNull();
    const [body, sig] = token.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ j: "job-2", u: "user-1", e: Math.floor(inAnHour.getTime() / 1000) })).toString("base64url");
    expect(verifyFileLink(`${forged}.${sig}`, secret, now)).toBeNull();
    const flipped = sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A");
    expect(verifyFileLink(`${body}.${flipped}`, secret, now)).toBeNull();
    for (const bad of ["", ".", "abc", `${body}.${sig}.x`, `.${sig}`, "x".repeat(5000)]) expect(verifyFileLink(bad, secret, now)).toBeNull();
    expect(verifyFileLink(token, "", now)).toBeNull();
  });

  test("a download link's signing scheme does not carry over", async () => {
    const { signDownload } = await import("#engine/serve/signed-links.ts");
    const dl = signDownload(secret, { id: "job-1", url: "https://x", format: "mp4", caller: "free", userId: "user-1", exp: Math.floor(inAnHour.getTime() / 1000) });
    expect(verifyFileLink(dl, secret, now)).toBeNull();
  });

  test("bad input to sign is refused", () => {
    expect(() => signFileLink({ jobId: "j", userId: "u", expiresAt: inAnHour }, "")).toThrow(/secret/);
    expect(() => signFileLink({ jobId: "", userId: "u", expiresAt: inAnHour }, secret)).toThrow(/jobId/);
    expect(() => signFileLink({ jobId: "j", userId: "u", expiresAt: new Date(NaN) }, secret)).toThrow(/expiresAt/);
  });
});
