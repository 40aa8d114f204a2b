import { LEGAL_LINKS, links, TOOLS_LINKS, type PageLink } from "./page-links.ts";

/** The /sitemap page's groups (spec §2 "Static pages": Main, Company, Legal) plus the tools pages; then six popular articles. */
export const SITEMAP_GROUPS: { id: string; title: string; links: PageLink[] }[] = [
  { id: "main", title: "Main", links: links("/", "/blog", "/how-to-download", "/supported-sites", "/faq") },
  { id: "tools", title: "Tools", links: TOOLS_LINKS },
  { id: "company", title: "Company", links: links("/about-us", "/contact-us") },
  { id: "legal", title: "Legal", links: LEGAL_LINKS },
];

/**
 * The /sitemap page's groups, each link with its label from page-links.ts. Read by the route's
 * loader only: the layout already ships page-links.ts, and a route importing it too would split
 * it out of the root chunk and grow the home page's first load (decision 007).
 */
export function sitemapPageGroups(): { id: string; title: string; links: { to: string; label: string }[] }[] {
  return [...SITEMAP_GROUPS, { id: "blog", title: "Popular Articles", links: SITEMAP_BLOG_SLUGS.map((slug) => ({ to: `/blog/${slug}`, label: titleFromSlug(slug) })) }];
}

export const SITEMAP_BLOG_SLUGS = [
  "how-to-download-youtube-videos-safely",
  "best-free-youtube-to-mp3-converters",
  "understanding-youtube-terms-of-service",
  "download-youtube-videos-on-mobile",
  "improve-video-quality-when-downloading",
  "youtube-download-copyright-guidelines",
] as const;

const UPPER = new Map([
  ["youtube", "YouTube"],
  ["mp3", "MP3"],
  ["mp4", "MP4"],
]);
const SMALL = new Set(["to", "of", "on", "and", "when", "the", "a"]);

/** A readable title from an article slug ("best-free-youtube-to-mp3-converters" → "Best Free YouTube to MP3 Converters"). */
export function titleFromSlug(slug: string): string {
  return slug
    .split("-")
    .map((w, i) => UPPER.get(w) ?? (i > 0 && SMALL.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");
}
