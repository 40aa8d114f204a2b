import { expect, test } from "@playwright/test";

const HEADER_LINKS: Array<[string, string]> = [
  ["How to Download", "/how-to-download"],
  ["Supported Sites", "/supported-sites"],
  ["Blog", "/blog"],
  ["Premium", "/premium"],
  ["FAQ", "/faq"],
  ["About Us", "/about-us"],
  ["Contact Us", "/contact-us"],
];

test("header links navigate and mark the active page", async ({ page }) => {
  await page.goto("/about-us");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
  for (const [name, path] of HEADER_LINKS) {
    await nav.getByRole("link", { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
});

test("the header fits its links on one line where it shows them, and the footer links the blog and the plans", async ({ page }) => {
  await page.goto("/faq");
  const header = page.locator("header").first();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeVisible();
  const fits = () => header.evaluate((h) => [...h.querySelectorAll("nav a, nav button")].every((el) => el.getBoundingClientRect().right <= h.clientWidth && el.getBoundingClientRect().height < 48));
  expect(await fits()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  // narrower: the menu button instead of a crowded row
  await page.setViewportSize({ width: 1024, height: 720 });
  await expect(nav).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toBeVisible();
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Blog", exact: true })).toHaveAttribute("href", "/blog");
  await expect(footer.getByRole("link", { name: "Premium Plans" })).toHaveAttribute("href", "/premium");
});

test("Tools dropdown: four tools and the coming-soon note, by mouse", async ({ page }) => {
  await page.goto("/faq");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("button", { name: "Tools" }).click();
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem")).toHaveText(["Video Converters", "Color Picker", "Text Tools", "Media Tools"]);
  await expect(menu).toContainText("More tools coming soon");
  await expect(menu.getByRole("menuitem", { name: "Color Picker" })).toHaveAttribute("href", "/tools/colors");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
});

test("Tools dropdown works with the keyboard", async ({ page }) => {
  await page.goto("/faq");
  await page.waitForLoadState("networkidle");
  const trigger = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Tools" });
  await trigger.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Video Converters" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Color Picker" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Video Converters" })).toBeFocused();
  await page.keyboard.press("End");
  await expect(menu.getByRole("menuitem", { name: "Media Tools" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/tools\/media$/);
});

test.describe("mobile menu at 375 px", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the toggle opens the menu and it closes on navigation", async ({ page }) => {
    await page.goto("/about-us");
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobile).toBeVisible();
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    for (const name of ["Home", ...HEADER_LINKS.map(([n]) => n), "Video Converters", "Color Picker", "Text Tools", "Media Tools"]) {
      await expect(mobile.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(mobile).toContainText("More tools coming soon");
    await mobile.getByRole("link", { name: "FAQ", exact: true }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(mobile).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");

    // the toggle also closes it
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(mobile).toBeVisible();
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(mobile).toBeHidden();
  });
});

test("footer: every listed link and six social links in a new tab", async ({ page }) => {
  await page.goto("/faq");
  const footer = page.locator("footer").last();
  for (const href of [
    "/about-us",
    "/contact-us",
    "/privacy-policy",
    "/terms-and-conditions",
    "/how-to-download",
    "/supported-sites",
    "/faq",
    "/sitemap",
    "/tools/converters",
    "/tools/colors",
    "/tools/text",
    "/tools/media",
    "/disclaimer",
    "/dmca",
  ]) {
    await expect(footer.locator(`a[href="${href}"]`).first()).toBeVisible();
  }
  const social = footer.locator('a[target="_blank"]');
  await expect(social).toHaveCount(6);
  for (const rel of await social.evaluateAll((els) => els.map((e) => e.getAttribute("rel") ?? ""))) expect(rel).toContain("noopener");
});

test("header and footer links navigate in the page, without reloading the document", async ({ page }) => {
  await page.goto("/faq");
  await page.waitForLoadState("networkidle");
  // a value on the window survives a client-side navigation and is lost on a document load
  await page.evaluate(() => ((window as unknown as { vidfetchMarker: number }).vidfetchMarker = 7));
  const marker = () => page.evaluate(() => (window as unknown as { vidfetchMarker?: number }).vidfetchMarker);
  await page.locator('footer a[href="/dmca"]').first().click();
  await expect(page).toHaveURL(/\/dmca$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("DMCA");
  expect(await marker()).toBe(7);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Supported Sites", exact: true }).click();
  await expect(page).toHaveURL(/\/supported-sites$/);
  expect(await marker()).toBe(7);
  // a link to the page already shown replaces its history entry rather than adding one
  const entries = await page.evaluate(() => history.length);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Supported Sites", exact: true }).click();
  await expect(page).toHaveURL(/\/supported-sites$/);
  expect(await page.evaluate(() => history.length)).toBe(entries);
  await page.goBack();
  await expect(page).toHaveURL(/\/dmca$/);
  expect(await marker()).toBe(7);
});
