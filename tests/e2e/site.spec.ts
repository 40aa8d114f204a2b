import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { INFO_PAGES } from "./support/pages.ts";

/** The information pages the foundation serves, with metadata on each. */
const PAGES: readonly string[] = INFO_PAGES;

test.describe("metadata on every page", () => {
  for (const path of PAGES) {
    test(`${path} has title, description, canonical, social cards and structured data`, async ({ page, baseURL }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(/\S.*\| VidFetch$/);
      const head = page.locator("head");
      await expect(head.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
      await expect(head.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}${path}`);
      await expect(head.locator('meta[property="og:title"]')).toHaveAttribute("content", /VidFetch/);
      await expect(head.locator('meta[property="og:url"]')).toHaveAttribute("content", `${baseURL}${path}`);
      await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");

      const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
      const objects = ld.map((t) => JSON.parse(t) as Record<string, unknown>);
      const types = objects.map((o) => o["@type"]);
      expect(types).toEqual(expect.arrayContaining(["WebSite", "Organization", "SoftwareApplication"]));
      const website = objects.find((o) => o["@type"] === "WebSite") as { potentialAction: { target: { urlTemplate: string } } };
      expect(website.potentialAction.target.urlTemplate).toBe(`${baseURL}/search?q={search_term_string}`);
      const app = objects.find((o) => o["@type"] === "SoftwareApplication") as {
        offers: { price: string; priceCurrency: string };
        aggregateRating: { ratingValue: string; ratingCount: string };
      };
      expect(app.offers).toMatchObject({ price: "0", priceCurrency: "USD" });
      expect(app.aggregateRating).toMatchObject({ ratingValue: "4.8", ratingCount: "2356" });
    });
  }
});

test("pages are server-rendered: the content is in the HTML before any script runs", async ({ request }) => {
  const html = await (await request.get("/faq")).text();
  expect(html).toContain("<h1");
  expect(html).toMatch(/Frequently Asked Questions/i);
});

test("security headers and a Content-Security-Policy that allows the page's inline scripts by hash", async ({ request }) => {
  const res = await request.get("/about-us");
  const headers = res.headers();
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(csp).not.toContain("nonce-");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  const allowed = new Set([...csp.matchAll(/'(sha256-[A-Za-z0-9+/=]+)'/g)].map((m) => m[1]));
  // every inline executable script is allowed by its own hash, and by nothing looser
  const html = await res.text();
  const inline = [...html.matchAll(/<script(?![^>]*type="application\/ld\+json")(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)];
  expect(inline.length).toBeGreaterThan(0);
  for (const [, body] of inline) expect(allowed).toContain(`sha256-${createHash("sha256").update(body!).digest("base64")}`);
  // nothing in the policy differs from one request to the next, so the page can be cached
  const again = await request.get("/about-us");
  expect(again.headers()["content-security-policy"]).toBe(csp);
  expect(again.headers()["etag"]).toBe(headers["etag"]);
  expect(again.headers()["cache-control"]).toMatch(/^public, .*s-maxage=\d+, stale-while-revalidate=\d+$/);
});

test("the page runs under its CSP without violations", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  });
  await page.goto("/faq");
  await page.waitForLoadState("networkidle");
  // hydration happened: a client-side navigation works
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About Us" }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  expect(violations).toEqual([]);
});

test("health and readiness", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  const body = await ready.json();
  expect(body.status).toBe("ready");
  expect(body.checks.database).toBe("ok");
  expect(body.checks.ffmpeg).toMatch(/^ok/);
});

test("sitemap.xml lists every public page and robots.txt points at it", async ({ request, baseURL }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.headers()["content-type"]).toContain("text/plain");
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);

  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.headers()["content-type"]).toContain("application/xml");
  const xml = await sitemap.text();
  expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  for (const path of ["/", ...PAGES.filter((p) => p !== "/connection-status")]) {
    expect(xml).toContain(`<loc>${baseURL}${path}</loc>`);
  }
});

test("site search finds pages and says when nothing matches", async ({ page }) => {
  await page.goto("/search?q=copyright+takedown");
  await expect(page.getByRole("heading", { level: 1, name: "Search" })).toBeVisible();
  await expect(page.getByRole("link", { name: "DMCA and Copyright Policy" })).toBeVisible();

  await page.getByRole("searchbox").fill("zzqqxx");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=zzqqxx/);
  await expect(page.getByText('No results for "zzqqxx".')).toBeVisible();
});

test("the header turns translucent after 20 px of scrolling", async ({ page }) => {
  await page.goto("/privacy-policy");
  const header = page.locator("header").first();
  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect(header).toHaveAttribute("data-scrolled", "true");
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute("data-scrolled", "false");
});

test("the offline notice follows the browser's connection and links to the status page", async ({ page, context }) => {
  await page.goto("/about-us");
  await page.waitForLoadState("networkidle");
  await context.setOffline(true);
  const notice = page.getByRole("alert").filter({ hasText: "You're Offline" });
  await expect(notice).toBeVisible();
  await expect(notice.getByRole("link")).toHaveAttribute("href", "/connection-status");
  await context.setOffline(false);
  await expect(notice).toBeHidden();
});
