import type { MetaDescriptor } from "react-router";
import type { PublicConfig } from "./public-config.ts";

/** The spec's rating for the SoftwareApplication structured data (spec §2 "Shared layout"). */
export const APP_RATING = { ratingValue: "4.8", ratingCount: "2356" } as const;

export interface SeoInput {
  title: string;
  description: string;
  /** path of the page, e.g. "/faq"; the canonical link is PUBLIC_URL + path */
  path: string;
  type?: "website" | "article";
  /** absolute or site-relative image for social cards */
  image?: string;
  keywords?: string[];
  /** extra JSON-LD objects for this page (articles, FAQ, breadcrumbs) */
  jsonLd?: Record<string, unknown>[];
  /** extra Open Graph article tags etc. */
  extra?: MetaDescriptor[];
  noindex?: boolean;
}

interface MatchLike {
  id: string;
  data?: unknown;
  loaderData?: unknown;
}

/** Read the public config from the root route's loader data inside a meta function. */
export function publicConfigFrom(matches: readonly (MatchLike | undefined)[]): PublicConfig | undefined {
  const root = matches.find((m) => m?.id === "root");
  const data = (root?.loaderData ?? root?.data) as { publicConfig?: PublicConfig } | undefined;
  return data?.publicConfig;
}

export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  // A site path is joined to the site's origin. Resolved as a URL reference, a path such as
  // "//x" or "/\\x" (any request path reaches the not-found page's canonical URL) would name a
  // host, and an impossible one throws.
  if (/^[/\\]/.test(pathOrUrl)) return new URL(new URL(publicUrl + "/").origin + pathOrUrl).toString();
  return new URL(pathOrUrl, publicUrl + "/").toString();
}

/**
 * Title, description, canonical, Open Graph, Twitter card and page JSON-LD for one page.
 * The site-wide JSON-LD (WebSite, Organization, SoftwareApplication) is added by the root layout.
 */
export function seo(matches: readonly (MatchLike | undefined)[], input: SeoInput): MetaDescriptor[] {
  const cfg = publicConfigFrom(matches);
  const siteName = cfg?.siteName ?? "VidFetch";
  const publicUrl = cfg?.publicUrl ?? "http://localhost:3000";
  const title = input.path === "/" ? `${siteName}: ${input.title}` : `${input.title} | ${siteName}`;
  const url = absoluteUrl(publicUrl, input.path);
  const image = absoluteUrl(publicUrl, input.image ?? "/social-card.png");
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: siteName },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: input.description },
    { name: "twitter:image", content: image },
  ];
  if (input.keywords?.length) tags.push({ name: "keywords", content: input.keywords.join(", ") });
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  for (const obj of input.jsonLd ?? []) tags.push({ "script:ld+json": obj });
  if (input.extra) tags.push(...input.extra);
  return tags;
}

/** Structured data present on every page (spec §2 "Shared layout"). */
export function siteJsonLd(cfg: PublicConfig): Record<string, unknown>[] {
  const url = cfg.publicUrl + "/";
  return [
    {
      "@context": "https://schema.org",
      "@type": "WebSite",
      name: cfg.siteName,
      url,
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: `${cfg.publicUrl}/search?q={search_term_string}` },
        "query-input": "required name=search_term_string",
      },
    },
    {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: cfg.siteName,
      url,
      logo: absoluteUrl(cfg.publicUrl, "/logo.svg"),
      contactPoint: { "@type": "ContactPoint", contactType: "customer support", ...(cfg.contactEmail ? { email: cfg.contactEmail } : {}), url: `${cfg.publicUrl}/contact-us` },
    },
    {
      "@context": "https://schema.org",
      "@type": "SoftwareApplication",
      name: cfg.siteName,
      applicationCategory: "MultimediaApplication",
      operatingSystem: "Any (web browser)",
      url,
      offers: { "@type": "Offer", price: "0", priceCurrency: "USD" },
      aggregateRating: { "@type": "AggregateRating", ...APP_RATING },
    },
  ];
}
