import type { MetaDescriptor } from "react-router";
import { absoluteUrl, publicConfigFrom } from "#app/lib/seo.ts";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { findSitePage } from "#app/modules/site/pages.ts";
import { toolJsonLd } from "./tool-page.tsx";

type Matches = Parameters<typeof pageMeta>[0];

/** Title, description, canonical and WebApplication JSON-LD of one tools page. */
export function toolMeta(matches: Matches, path: string, name: string): MetaDescriptor[] {
  const page = findSitePage(path)!;
  const url = absoluteUrl(publicConfigFrom(matches)?.publicUrl ?? "http://localhost:3000", path);
  return pageMeta(matches, path, { jsonLd: [toolJsonLd(name, page.description, url)] });
}
