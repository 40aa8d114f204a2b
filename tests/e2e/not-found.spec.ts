import { expect, test } from "@playwright/test";

test("an unknown path answers 404 with the spec's texts, buttons and suggestions", async ({ page }) => {
  // a frozen clock: on a slow machine the countdown would otherwise move on before the check
  await page.clock.install();
  const res = await page.goto("/this-page-does-not-exist-123");
  expect(res?.status()).toBe(404);
  await expect(page).toHaveTitle(/^Page Not Found \| /);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page Not Found");
  const main = page.locator("main");
  await expect(main.getByRole("link", { name: "Go to Homepage" })).toHaveAttribute("href", "/");
  await expect(main.getByRole("link", { name: "Report a Problem" })).toHaveAttribute("href", "/contact-us");
  await expect(main.getByRole("button", { name: "Go Back" })).toBeVisible();
  for (const href of ["/how-to-download", "/supported-sites", "/tools/converters"]) {
    await expect(main.locator(`a[href="${href}"]`).first()).toBeVisible();
  }
  await expect(page.getByText("Redirecting you to a relevant page in 30 seconds...")).toBeVisible();
});

test("the countdown ticks, and after 30 seconds goes to the most relevant page", async ({ page }) => {
  await page.clock.install();
  await page.goto("/faqs");
  await expect(page.getByTestId("redirect-countdown").getByRole("button", { name: "Cancel" })).toBeVisible();
  const seconds = page.getByTestId("countdown-seconds");
  await expect(seconds).toHaveText("30");
  await page.clock.runFor(5_000);
  await expect(seconds).toHaveText("25");
  await expect(page.getByTestId("redirect-countdown")).toContainText("Redirecting you to a relevant page in 25 seconds...");
  // the live region announces milestones, not every tick
  await expect(page.getByRole("status").filter({ hasText: "Redirecting to" })).toHaveText("Redirecting to Frequently Asked Questions in 30 seconds.");
  await page.clock.runFor(26_000);
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Frequently Asked Questions");
});

test("Cancel stops the redirect", async ({ page }) => {
  await page.clock.install();
  await page.goto("/privacy");
  const box = page.getByTestId("redirect-countdown");
  await box.getByRole("button", { name: "Cancel" }).click();
  await expect(box).toContainText("Redirect cancelled");
  await page.clock.runFor(40_000);
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page Not Found");
});

test("Go Back returns to the previous page, or home without one", async ({ page }) => {
  await page.goto("/about-us");
  await page.evaluate(() => (window.location.href = "/no/such/page"));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page Not Found");
  await expect(page.getByRole("button", { name: "Cancel" })).toBeVisible();
  await page.getByRole("button", { name: "Go Back" }).click();
  await expect(page).toHaveURL(/\/about-us$/);

  await page.goto("/still/missing");
  await expect(page.getByRole("button", { name: "Cancel" })).toBeVisible();
  await page.getByRole("button", { name: "Go Back" }).click();
  await expect(page).toHaveURL(/\/$/);
});
