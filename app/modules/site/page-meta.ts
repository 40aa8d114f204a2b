import type { MetaDescriptor } from "react-router";
import { seo, type SeoInput } from "#app/lib/seo.ts";
import { findSitePage } from "./pages.ts";

type Matches = Parameters<typeof seo>[0];

/**
 * Metadata for one of the registered information pages: title, description and keywords come
 * from SITE_PAGES so the page, the sitemap and the site search never disagree.
 */
export function pageMeta(matches: Matches, path: string, extra: Omit<Partial<SeoInput>, "path"> = {}): MetaDescriptor[] {
  const page = findSitePage(path);
  if (!page) throw new Error(`pageMeta: ${path} is not in SITE_PAGES`);
  return seo(matches, { title: page.title, description: page.description, keywords: page.keywords, path, ...extra });
}
