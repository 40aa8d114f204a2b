import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { inlineScriptHashes } from "./security.ts";

describe("inline script hashes for the CSP", () => {
  test("match the CSP specification's example", () => {
    // https://www.w3.org/TR/CSP3/#hash-source-example
    expect(inlineScriptHashes("<script>alert('Hello, world.');</script>")).toEqual(["'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"]);
  });

  test("cover executable inline scripts only, once each, in order", () => {
    const html = [
      `<script type="application/ld+json">{"@type":"WebSite"}</script>`,
      `<script src="/assets/a.js"></script>`,
      `<script type="module" async="">import("/b.js")</script>`,
      `<script>alert('Hello, world.');</script>`,
      `<script type="text/javascript">alert('Hello, world.');</script>`,
      `<SCRIPT>x=1</SCRIPT>`,
    ].join("");
    const hashes = inlineScriptHashes(html);
    expect(hashes).toHaveLength(3);
    expect(hashes[1]).toBe("'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='");
    expect(new Set(hashes).size).toBe(3);
  });

  test("hash a page's bytes as the browser hashes the script's UTF-8 text, characters beyond ASCII included", () => {
    const script = "document.title = 'Téléchargement — 視頻 🎬'; var gt = '>';";
    const html = `<!DOCTYPE html><html><head><title>Vidéo « ✓ »</title></head><body><p>€ ≥ 𝄞</p><script>${script}</script><script type="module">import "/é.js"</script></body></html>`;
    const expected = (text: string) => `'sha256-${createHash("sha256").update(Buffer.from(text, "utf8")).digest("base64")}'`;
    const fromBytes = inlineScriptHashes(Buffer.from(html, "utf8"));
    expect(fromBytes).toEqual([expected(script), expected('import "/é.js"')]);
    // the text and its bytes give the same answer; so does a view into a larger buffer
    expect(inlineScriptHashes(html)).toEqual(fromBytes);
    const padded = Buffer.from(`xx${html}yy`, "utf8");
    expect(inlineScriptHashes(padded.subarray(2, padded.length - 2))).toEqual(fromBytes);
  });

  test("a page without inline scripts needs none", () => {
    expect(inlineScriptHashes(`<html><body><script src="/x.js"></script></body></html>`)).toEqual([]);
  });
});
