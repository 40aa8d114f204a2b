import { describe, expect, it } from "vitest";
import { signDownload } from "#engine/serve/signed-links.ts";
import { loggableUrl } from "./loggable-url.ts";

describe("loggableUrl", () => {
  it("replaces a signed download token by its download id", () => {
    const token = signDownload("secret", { id: "dl_abc123", url: "https://youtu.be/x", format: "mp4-720", caller: "anonymous", exp: 2_000_000_000 });
    const logged = loggableUrl(`/api/v1/dl/${token}`);
    expect(logged).toBe("/api/v1/dl/[download dl_abc123]");
    expect(logged).not.toContain(token.split(".")[1]);
  });

  it("keeps the names of query parameters, not their values", () => {
    expect(loggableUrl("/api/v1/download?url=https%3A%2F%2Fyoutu.be%2Fsecret&format=mp4-720")).toBe("/api/v1/download?url=…&format=…");
    expect(loggableUrl("/blog?q=my+private+search")).toBe("/blog?q=…");
  });

  it("logs a forged or garbled token as unreadable", () => {
    expect(loggableUrl("/api/v1/dl/%ZZ")).toBe("/api/v1/dl/[download unreadable]");
    expect(loggableUrl("/api/v1/dl/" + Buffer.from('{"d":"<script>"}').toString("base64url") + ".x")).toBe("/api/v1/dl/[download unreadable]");
  });

  it("leaves plain paths alone", () => {
    expect(loggableUrl("/faq")).toBe("/faq");
  });
});
