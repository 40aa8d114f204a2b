import { describe, expect, it } from "vitest";
import { TOOLS_LINKS } from "./page-links.ts";
import { SITEMAP_BLOG_SLUGS, SITEMAP_GROUPS, titleFromSlug } from "./sitemap-groups.ts";

describe("sitemap groups", () => {
  it("lists the spec's groups in order, with the tools pages", () => {
    expect(SITEMAP_GROUPS.map((g) => [g.title, g.links.map((l) => l.to)])).toEqual([
      ["Main", ["/", "/blog", "/how-to-download", "/supported-sites", "/faq"]],
      ["Tools", ["/tools/converters", "/tools/colors", "/tools/text", "/tools/media"]],
      ["Company", ["/about-us", "/contact-us"]],
      ["Legal", ["/privacy-policy", "/terms-and-conditions", "/disclaimer", "/dmca"]],
    ]);
    expect(SITEMAP_BLOG_SLUGS).toHaveLength(6);
  });

  it("lists the tools exactly as the header's Tools menu does", () => {
    expect(SITEMAP_GROUPS.find((g) => g.id === "tools")?.links).toEqual(TOOLS_LINKS);
  });

  it("turns slugs into readable titles", () => {
    expect(titleFromSlug("best-free-youtube-to-mp3-converters")).toBe("Best Free YouTube to MP3 Converters");
    expect(titleFromSlug("understanding-youtube-terms-of-service")).toBe("Understanding YouTube Terms of Service");
  });
});
