import { listBlogSitemapEntries } from "#app/modules/blog/articles.server.ts";
import { SITE_PAGES } from "#app/modules/site/pages.ts";
import type { Route } from "./+types/sitemap-xml";

interface SitemapEntry {
  path: string;
  lastmod?: string;
  changefreq?: string;
  priority?: number;
}

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

export async function loader({ context }: Route.LoaderArgs) {
  const base = context.publicConfig.publicUrl;
  const entries: SitemapEntry[] = [
    ...SITE_PAGES.filter((p) => p.listed !== false).map((p) => ({ path: p.path, changefreq: p.changefreq, priority: p.priority })),
    // the blog's list and articles (imported here: a server module may only feed the loader)
    ...(await listBlogSitemapEntries(context.db)),
  ];
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries.map((e) =>
      [
        "  <url>",
        `    <loc>${escapeXml(new URL(e.path, base + "/").toString())}</loc>`,
        e.lastmod ? `    <lastmod>${escapeXml(e.lastmod)}</lastmod>` : null,
        e.changefreq ? `    <changefreq>${e.changefreq}</changefreq>` : null,
        e.priority !== undefined ? `    <priority>${e.priority.toFixed(1)}</priority>` : null,
        "  </url>",
      ]
        .filter(Boolean)
        .join("\n"),
    ),
    "</urlset>",
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
