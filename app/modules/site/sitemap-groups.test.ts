import { describe, expect, it } from "vitest";
import { SITEMAP_BLOG_SLUGS, sitemapPageGroups, titleFromSlug } from "./sitemap-groups.server.ts";

describe("sitemap groups", () => {
  it("lists the spec's groups in order, with the tools pages and six articles", () => {
    expect(sitemapPageGroups().map((g) => [g.title, g.links.map((l) => l.to)])).toEqual([
      ["Main", ["/", "/blog", "/how-to-download", "/supported-sites", "/faq"]],
      ["Tools", ["/tools/converters", "/tools/colors", "/tools/text", "/tools/media"]],
      ["Company", ["/about-us", "/contact-us"]],
      ["Legal", ["/privacy-policy", "/terms-and-conditions", "/disclaimer", "/dmca"]],
      ["Popular Articles", SITEMAP_BLOG_SLUGS.map((slug) => `/blog/${slug}`)],
    ]);
    expect(SITEMAP_BLOG_SLUGS).toHaveLength(6);
  });

  it("turns slugs into readable titles", () => {
    expect(titleFromSlug("best-free-youtube-to-mp3-converters")).toBe("Best Free YouTube to MP3 Converters");
    expect(titleFromSlug("understanding-youtube-terms-of-service")).toBe("Understanding YouTube Terms of Service");
  });
});
