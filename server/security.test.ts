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

  test("a page without inline scripts needs none", () => {
    expect(inlineScriptHashes(`<html><body><script src="/x.js"></script></body></html>`)).toEqual([]);
  });
});
