import type { ArticleSummary } from "./types.ts";
import { articlePath } from "./types.ts";

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/** How many items the feed carries (the newest). */
export const RSS_ITEMS = 50;

/** An RSS 2.0 document for the blog. */
export function renderRss(opts: { siteName: string; publicUrl: string; articles: (ArticleSummary & { modifiedDate?: string })[] }): string {
  const base = opts.publicUrl.replace(/\/+$/, "");
  const channelLink = `${base}/blog`;
  const lastBuild = opts.articles.reduce((max, a) => (a.publishedAt > max ? a.publishedAt : max), "1970-01-01T00:00:00.000Z");
  const items = opts.articles.map((a) => {
    const link = `${base}${articlePath(a.slug)}`;
    return [
      "    <item>",
      `      <title>${escapeXml(a.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${new Date(a.publishedAt).toUTCString()}</pubDate>`,
      `      <dc:creator>${escapeXml(a.author)}</dc:creator>`,
      ...a.tags.map((t) => `      <category>${escapeXml(t)}</category>`),
      `      <description>${escapeXml(a.excerpt)}</description>`,
      "    </item>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${escapeXml(`${opts.siteName} Blog`)}</title>`,
    `    <link>${escapeXml(channelLink)}</link>`,
    `    <description>${escapeXml("Guides on saving videos safely and legally, formats and quality, mobile downloads and copyright.")}</description>`,
    "    <language>en-us</language>",
    `    <lastBuildDate>${new Date(lastBuild).toUTCString()}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(`${base}/blog/rss.xml`)}" rel="self" type="application/rss+xml" />`,
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}
