import { expect, test } from "@playwright/test";
import { queryE2eDatabase } from "./support/db.ts";
import { readBackAvailable } from "./support/read-back.ts";

/** Every information page renders server-side with its heading and document title. */
const PAGES: Array<[path: string, h1: RegExp, title: RegExp]> = [
  ["/how-to-download", /^How to Download Videos$/, /^How to Download Videos: Step-by-Step Guide \| /],
  ["/supported-sites", /^Supported Sites$/, /^Supported Sites and Platforms \| /],
  ["/faq", /^Frequently Asked Questions$/, /^Frequently Asked Questions \| /],
  ["/about-us", /^About /, /^About Us \| /],
  ["/contact-us", /^Contact Us$/, /^Contact Us \| /],
  ["/privacy-policy", /^Privacy Policy$/, /^Privacy Policy \| /],
  ["/terms-and-conditions", /^Terms and Conditions$/, /^Terms and Conditions \| /],
  ["/disclaimer", /^Disclaimer$/, /^Disclaimer \| /],
  ["/dmca", /^DMCA and Copyright Policy$/, /^DMCA and Copyright Policy \| /],
  ["/sitemap", /^Sitemap$/, /^Sitemap \| /],
  ["/connection-status", /^Connection Status$/, /^Connection Status \| /],
];

for (const [path, h1, title] of PAGES) {
  test(`${path} renders with its title`, async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    page.on("pageerror", (err) => errors.push(err.message));
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page).toHaveTitle(title);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
    // Real content, not a placeholder body.
    const text = await page.locator("main").innerText();
    expect(text).not.toMatch(/lorem ipsum|under construction/i);
    expect(text.length).toBeGreaterThan(400);
    // hydrated without mismatches or script errors
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
  });
}

test("privacy policy: 13 sections, a generated last-updated date and a link to contact", async ({ page }) => {
  await page.goto("/privacy-policy");
  await expect(page.getByTestId("legal-section")).toHaveCount(13);
  await expect(page.getByText(/^Last updated: [A-Z][a-z]+ \d{1,2}, \d{4}$/)).toBeVisible();
  for (const heading of ["Introduction", "Data we collect", "Legal bases", "Advertising and analytics", "Children's privacy", "Contact us"]) {
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(heading) })).toBeVisible();
  }
  await expect(page.getByText(/not directed at children under 13/)).toBeVisible();
  await expect(page.locator("main").getByRole("link", { name: "contact form" })).toHaveAttribute("href", "/contact-us");
});

test("terms: every section and 30 days' notice for material changes", async ({ page }) => {
  await page.goto("/terms-and-conditions");
  // the spec's sixteen, and the Ultimate plan's business use (issue 31 §5)
  await expect(page.getByTestId("legal-section")).toHaveCount(17);
  await expect(page.getByText(/For material changes we give at least 30 days' notice/)).toBeVisible();
  await expect(page.locator("#ultimate")).toContainText("you may use the Service for your business");
});

test("disclaimer: ten sections", async ({ page }) => {
  await page.goto("/disclaimer");
  await expect(page.getByTestId("legal-section")).toHaveCount(10);
});

test("DMCA: six notice items, five counter-notice items, four fair-use factors, the repeat-infringer rule", async ({ page }) => {
  await page.goto("/dmca");
  await expect(page.locator("#takedown-notice ol > li")).toHaveCount(6);
  await expect(page.locator("#counter-notification ol > li")).toHaveCount(5);
  await expect(page.locator("#fair-use ol > li")).toHaveCount(4);
  await expect(page.getByText(/more than two valid notices concerning their activity within twelve months/)).toBeVisible();
  await expect(page.getByText(/in 10 to 14 business days/)).toBeVisible();
  for (const id of ["international", "changes", "contact"]) await expect(page.locator(`#${id}`)).toBeVisible();
});

test("about us: mission, who we are, four differentiators, values, commitments, contact link", async ({ page }) => {
  await page.goto("/about-us");
  for (const h of ["Our mission", "Who we are", "What makes us different", "Our values", "Our commitments to you"]) {
    await expect(page.getByRole("heading", { level: 2, name: h })).toBeVisible();
  }
  await expect(page.getByTestId("differentiator")).toHaveCount(4);
  await expect(page.locator("main").getByRole("link", { name: "Contact us" })).toHaveAttribute("href", "/contact-us");
});

test("how to download: five illustrated steps, seven tips, troubleshooting, links to / and /faq", async ({ page }) => {
  await page.goto("/how-to-download");
  const steps = page.getByTestId("guide-step");
  await expect(steps).toHaveCount(5);
  for (const [i, name] of ["Find the video", "Copy the URL", "Paste it into the downloader", "Choose the format and quality", "Download the file"].entries()) {
    await expect(steps.nth(i).getByRole("heading", { level: 3 })).toHaveText(name);
    const img = steps.nth(i).getByRole("img");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  }
  await expect(page.getByTestId("guide-tip")).toHaveCount(7);
  for (const t of ["The video is not downloading", "The quality is lower than expected", "The download is slow"]) {
    await expect(page.getByRole("heading", { level: 3, name: t })).toBeVisible();
  }
  const main = page.locator("main");
  await expect(main.locator('a[href="/"]').first()).toBeVisible();
  await expect(main.locator('a[href="/faq"]').first()).toBeVisible();
});

test("supported sites: what this server's (fake) yt-dlp lists, folded, and a search that works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/supported-sites");
  const section = page.locator("#ytdlp-sites");
  // the fake yt-dlp (tests/mocks/ytdlp.ts) lists youtube, youtube:tab, facebook, Instagram and vimeo
  await expect(section).toContainText("This server runs yt-dlp 2023.03.04, which knows 4 sites (5 extractors).");
  const list = section.getByTestId("ytdlp-site-list");
  await expect(list).toBeHidden();
  await section.getByText("All 4 sites").click();
  await expect(list.getByRole("listitem")).toHaveText(["facebook", "Instagram", "vimeo", "youtube"]);
  await section.getByRole("searchbox", { name: "Find a site" }).fill("YOU");
  await section.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(/\/supported-sites\?site=YOU#ytdlp-sites$/);
  await expect(page.getByTestId("ytdlp-search-results")).toContainText("2 extractors have “YOU” in their names:");
  await expect(page.getByTestId("ytdlp-search-results").getByRole("listitem")).toHaveText(["youtube", "youtube:tab"]);
  await context.close();
});

test("supported sites: eight platform cards with the statuses this server can honour (yt-dlp present)", async ({ page }) => {
  await page.goto("/supported-sites");
  const cards = page.getByTestId("platform-card");
  await expect(cards).toHaveCount(8);
  const expected: Array<[string, string]> = [
    ["YouTube", "Fully Supported"],
    ["Facebook", "Basic Support"],
    ["Instagram", "Basic Support"],
    // the e2e server has a (fake) yt-dlp: the platforms it reads get basic support too
    ["TikTok", "Basic Support"],
    ["Twitter (X)", "Basic Support"],
    ["Vimeo", "Basic Support"],
    ["Dailymotion", "Basic Support"],
    ["Twitch", "Basic Support"],
  ];
  for (const [i, [name, status]] of expected.entries()) {
    await expect(cards.nth(i).getByRole("heading", { level: 3 })).toHaveText(name);
    await expect(cards.nth(i)).toContainText(status);
  }
  await expect(cards.nth(0)).toContainText("MP4, MP3, WEBM");
  await expect(cards.nth(0)).toContainText("1080p");
  await expect(cards.nth(0)).toContainText("Playlists: pick the videos to save (Ultimate saves them as one ZIP)");
  await expect(cards.nth(1)).toContainText("720p");
  await expect(cards.nth(2)).toContainText("Reels");
  await expect(page.getByText("needs yt-dlp")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 2, name: "Request Platform Support" })).toBeVisible();
});

test("sitemap: the spec's groups, six articles, no header or footer ad slot", async ({ page }) => {
  await page.goto("/sitemap");
  const groups: Record<string, string[]> = {
    Main: ["/", "/blog", "/how-to-download", "/supported-sites", "/faq"],
    Company: ["/about-us", "/contact-us"],
    Legal: ["/privacy-policy", "/terms-and-conditions", "/disclaimer", "/dmca"],
  };
  for (const [name, hrefs] of Object.entries(groups)) {
    const section = page.locator("main section").filter({ has: page.getByRole("heading", { level: 2, name, exact: true }) });
    const links = await section.getByRole("link").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(links).toEqual(hrefs);
  }
  const articles = page.locator("main section").filter({ has: page.getByRole("heading", { name: "Popular Articles" }) });
  await expect(articles.getByRole("link")).toHaveCount(6);
  await expect(articles.locator('a[href="/blog/youtube-download-copyright-guidelines"]')).toBeVisible();
  await expect(page.locator('[data-ad-placement="header"], [data-ad-placement="footer"]')).toHaveCount(0);
});

test("FAQ: eight questions, one open at a time, FAQPage data, contact link", async ({ page }) => {
  await page.goto("/faq");
  const triggers = page.locator("main").getByRole("button", { expanded: false });
  await expect(triggers).toHaveCount(8);
  const first = page.getByRole("button", { name: /free to use/ });
  const second = page.getByRole("button", { name: /legal to download/ });
  await first.click();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByText(/Downloading videos, audio, thumbnails and transcripts is free/)).toBeVisible();
  await second.click();
  await expect(second).toHaveAttribute("aria-expanded", "true");
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await expect(page.locator('main [data-state="open"][role="region"]')).toHaveCount(1);
  // collapsible: the open one closes again
  await second.click();
  await expect(page.locator('main [data-state="open"][role="region"]')).toHaveCount(0);

  const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t));
  const faq = ld.find((o) => o["@type"] === "FAQPage");
  expect(faq.mainEntity).toHaveLength(8);
  await expect(page.locator("main").getByRole("link", { name: /Contact us/ })).toHaveAttribute("href", "/contact-us");
});

test("connection status: Connected/Offline from the browser, Check Again probes the server, Back", async ({ page, context }) => {
  await page.goto("/faq");
  await page.evaluate(() => (window.location.href = "/connection-status"));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connection Status");
  await expect(page.getByRole("heading", { level: 2, name: "Connected", exact: true })).toBeVisible();
  await expect(page.getByTestId("last-checked").locator("time")).toBeVisible();
  // probed once on arrival
  await expect(page.getByTestId("server-check")).toContainText(/Our servers answered in \d+ ms\./);

  const probe = page.waitForRequest((r) => r.url().endsWith("/healthz"));
  await page.getByRole("button", { name: "Check Again" }).click();
  await probe;
  await expect(page.getByTestId("server-check")).toContainText(/Our servers answered in \d+ ms\./);

  await context.setOffline(true);
  await expect(page.getByRole("heading", { level: 2, name: "Offline", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Check Again" }).click();
  await expect(page.getByTestId("server-check")).toContainText(/Unable to connect to our servers|timed out/);
  await context.setOffline(false);
  await expect(page.getByRole("heading", { level: 2, name: "Connected", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/faq$/);
});

test("connection status: Back without history goes home", async ({ page }) => {
  await page.goto("/connection-status");
  await page.getByRole("button", { name: "Check Again" }).waitFor();
  await page.waitForFunction(() => document.querySelector("[data-testid=last-checked] time"));
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe("newsletter endpoint", () => {
  test("subscribes once per address, answers repeats the same, rejects bad addresses", async ({ request }) => {
    const email = `reader-${Date.now()}@example.com`;
    const ok = { ok: true, message: "Thanks! Please check your inbox and open the link in our email to confirm your subscription. Already subscribed? Then there is nothing more to do." };
    const first = await request.post("/newsletter", { data: { email, website: "" } });
    expect(first.status()).toBe(200);
    expect(await first.json()).toEqual(ok);
    const again = await request.post("/newsletter", { form: { email: `  ${email.toUpperCase()} ` } });
    expect(await again.json()).toEqual(ok);
    const bad = await request.post("/newsletter", { data: { email: "not-an-address" } });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toEqual({ ok: false, message: "Please enter a valid email address" });

    if (!readBackAvailable()) return;
    const rows = await queryE2eDatabase<{ email: string }>("select email from newsletter_subscribers where email = $1", [email]);
    expect(rows).toHaveLength(1);
  });
});
