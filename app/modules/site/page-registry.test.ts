import { describe, expect, it } from "vitest";
import routes from "#app/routes.ts";
import { FOOTER_GROUPS, HEADER_LINKS, TOOLS_LINKS } from "./page-links.ts";
import { SITEMAP_GROUPS } from "./sitemap-groups.server.ts";
import { pageMeta } from "./page-meta.ts";
import { SITE_PAGES } from "./pages.ts";

/**
 * A new page is its route plus its entry in pages.ts (and page-links.ts when the layout or the
 * /sitemap page links to it). This test walks app/routes.ts, so a route nobody registered fails
 * here instead of `pageMeta` throwing while the page renders. Routes that are not information
 * pages are opted out by name, with the reason.
 */
const NOT_INFORMATION_PAGES: Record<string, string> = {
  "/search": "results of a query (not indexed)",
  "/newsletter": "a form's POST target",
  "/newsletter/confirm": "a mailed link's page (signed token, not indexed)",
  "/newsletter/unsubscribe": "a mailed link's page (signed token, not indexed)",
  "/blog": "the blog writes its own meta and sitemap.xml entries",
  "/blog/rss.xml": "a feed",
  "/blog/comment-images/:id": "an image",
  "/blog/:slug": "articles: the blog's own meta and sitemap.xml entries",
  "/login": "an account page (not indexed)",
  "/signup": "an account page (not indexed)",
  "/logout": "a POST target",
  "/dashboard": "an account page (not indexed)",
  "/dashboard/export": "a download",
  "/forgot-password": "an account page (not indexed)",
  "/reset-password": "an account page (not indexed)",
  "/admin": "the operators' area (a 404 for everyone else, not indexed)",
  "/premium": "the plans page writes its own meta",
  "/payment-success": "a checkout's return page (not indexed)",
  "/billing/portal": "a redirect to Stripe",
  "/billing/cancel": "a POST target",
  "/sitemap.xml": "machine-readable",
  "/robots.txt": "machine-readable",
  "/*": "the 404 page",
};

/** Registered pages the footer does not link to (the footer is for the site's sections). */
const NOT_IN_FOOTER = ["/", "/shorts-downloader", "/connection-status"];
/** Registered pages the /sitemap page does not list. */
const NOT_ON_SITEMAP_PAGE = ["/shorts-downloader", "/sitemap", "/connection-status"];

interface RouteEntry {
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

function routePaths(entries: RouteEntry[], parent = ""): string[] {
  return entries.flatMap((r) => {
    const own = r.index ? parent || "/" : `${parent}/${r.path ?? ""}`.replace(/\/+$/, "") || "/";
    return [own, ...routePaths(r.children ?? [], own === "/" ? "" : own)];
  });
}

const ROUTES = routePaths(routes as RouteEntry[]);
const registered = new Set(SITE_PAGES.map((p) => p.path));
const footer = new Set(FOOTER_GROUPS.flatMap((g) => g.links.map((l) => l.to as string)));
const sitemapPage = new Set(SITEMAP_GROUPS.flatMap((g) => g.links.map((l) => l.to as string)));

describe("the page registry", () => {
  it("has every route of app/routes.ts, or its reason for not being a page", () => {
    const missing = ROUTES.filter((path) => !registered.has(path) && !(path in NOT_INFORMATION_PAGES));
    expect(missing).toEqual([]);
  });

  it("has no page or opt-out without a route", () => {
    expect([...registered, ...Object.keys(NOT_INFORMATION_PAGES)].filter((path) => !ROUTES.includes(path))).toEqual([]);
  });

  it("gives every registered page its metadata", () => {
    const matches = [{ id: "root", data: { publicConfig: { siteName: "VidFetch", publicUrl: "https://vidfetch.example" } } }] as unknown as Parameters<typeof pageMeta>[0];
    for (const page of SITE_PAGES) expect(pageMeta(matches, page.path).length, page.path).toBeGreaterThan(0);
  });

  it("links every registered page from the footer and the /sitemap page, or says it does not", () => {
    expect(SITE_PAGES.filter((p) => !footer.has(p.path) && !NOT_IN_FOOTER.includes(p.path)).map((p) => p.path)).toEqual([]);
    expect(SITE_PAGES.filter((p) => !sitemapPage.has(p.path) && !NOT_ON_SITEMAP_PAGE.includes(p.path)).map((p) => p.path)).toEqual([]);
  });

  it("links only to routes", () => {
    const linked = [...HEADER_LINKS, ...TOOLS_LINKS, ...FOOTER_GROUPS.flatMap((g) => g.links), ...SITEMAP_GROUPS.flatMap((g) => g.links)].map((l) => l.to as string);
    expect(linked.filter((to) => !ROUTES.includes(to))).toEqual([]);
  });
});
