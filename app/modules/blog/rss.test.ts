import { describe, expect, it } from "vitest";
import { renderRss } from "./rss.server.ts";
import type { ArticleSummary } from "./types.ts";

const article: ArticleSummary = {
  id: 7,
  slug: "tips-and-tricks",
  title: `Tips & "Tricks" <for> MP4`,
  excerpt: "Less-than < and ampersand & are escaped.",
  image: "/blog/covers/tips.svg",
  author: "Ada O'Neil",
  publishedAt: "2026-11-20T00:00:00.000Z",
  date: "November 20, 2026",
  readTime: "5 min read",
  tags: ["MP4", "Guide"],
  source: "generated",
  premium: false,
};

describe("renderRss", () => {
  it("writes an RSS 2.0 channel with escaped items", () => {
    const xml = renderRss({ siteName: "VidFetch", publicUrl: "https://example.org/", articles: [article] });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml).toContain("<title>VidFetch Blog</title>");
    expect(xml).toContain("<link>https://example.org/blog</link>");
    expect(xml).toContain('<atom:link href="https://example.org/blog/rss.xml" rel="self" type="application/rss+xml" />');
    expect(xml).toContain("<title>Tips &amp; &quot;Tricks&quot; &lt;for&gt; MP4</title>");
    expect(xml).toContain('<guid isPermaLink="true">https://example.org/blog/tips-and-tricks</guid>');
    expect(xml).toContain("<pubDate>Fri, 20 Nov 2026 00:00:00 GMT</pubDate>");
    expect(xml).toContain("<dc:creator>Ada O&apos;Neil</dc:creator>");
    expect(xml).toContain("<category>Guide</category>");
    expect(xml).not.toMatch(/<(?!\/?(rss|channel|title|link|description|language|lastBuildDate|atom:link|item|guid|pubDate|dc:creator|category)\b|\?xml)/);
  });
});
