import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { INFO_PAGES } from "./support/pages.ts";

const PAGES: readonly string[] = [...INFO_PAGES, "/no-such-page"];

for (const path of PAGES) {
  test(`${path} has no serious or critical accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
    const blocking = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
    expect(blocking).toEqual([]);
  });
}

test("the FAQ accordion and the contact form stay accessible when used", async ({ page }) => {
  await page.goto("/faq");
  await page.getByRole("button", { name: /free to use/ }).click();
  let results = await new AxeBuilder({ page }).include("main").analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);

  await page.goto("/contact-us");
  await expect(page.locator("form[novalidate]")).toHaveCount(1);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Error" })).toBeVisible();
  results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);

  await page.getByLabel(/^Name/).fill("Axe");
  await page.getByLabel(/^Email/).fill("axe@example.com");
  await page.getByLabel(/^Message/).fill("Checking the success toast.");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Message sent" })).toBeVisible();
  results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
});
