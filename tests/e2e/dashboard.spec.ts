import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { SAMPLE, downloadFormat, ffprobe, lookUp } from "./home-helpers.ts";
import { queryE2eDatabase, requireE2eDatabase } from "./support/db.ts";
import { submitSignupAndConfirm } from "./support/accounts.ts";

/** A fresh address per run: the e2e database lives as long as the server. */
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

function toast(page: Page, title: string) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

async function signUp(page: Page, name: string, email: string) {
  await page.goto("/signup");
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await submitSignupAndConfirm(page, { name, email, password: "correct horse battery" });
  await expect(page).toHaveURL(/\/dashboard$/);
}

function dashboardTab(page: Page, name: "Downloads" | "History" | "Settings") {
  return page.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab", { name });
}

test("free user: Downloads tab downloads, History lists it, Settings saves the name", async ({ page }, testInfo) => {
  await signUp(page, "Ada Lovelace", uniqueEmail("dash"));
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Free User" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/premium");
  await expect(dashboardTab(page, "Downloads")).toHaveAttribute("aria-selected", "true");

  // the History tab starts empty
  await dashboardTab(page, "History").click();
  await expect(page).toHaveURL(/\/dashboard\?tab=history$/);
  await expect(page.getByText("No downloads yet")).toBeVisible();

  // the same downloader as the home page, with a free user's entitlements
  await dashboardTab(page, "Downloads").click();
  await lookUp(page, SAMPLE.all);
  await expect(page.getByTestId("format-mp4-2160").getByRole("link", { name: "Unlock MP4 2160p 4K with Premium" })).toBeVisible();
  const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
  expect(mp4.download.suggestedFilename()).toBe("Sample clip in every quality (720p).mp4");

  // the server recorded it (the row is written when the stream ends)
  await expect(async () => {
    await dashboardTab(page, "History").click();
    await expect(page).toHaveURL(/tab=history/);
    const row = page.getByTestId("history-row").first();
    await expect(row).toContainText(SAMPLE.title, { timeout: 1000 });
    await expect(row).toContainText("MP4 720p HD");
    await expect(row).toContainText("Done");
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole("columnheader")).toHaveText(["Title", "Date", "Format", "Size", "Status"]);

  // on a phone: one card per download, status, format and size first, nothing to scroll sideways
  await page.setViewportSize({ width: 375, height: 812 });
  const card = page.getByTestId("history-card").first();
  await expect(card).toBeVisible();
  await expect(card).toContainText(/Done\s*MP4 720p HD\s*·\s*\d[\d.]* (KB|MB)/);
  await expect(page.getByTestId("history-row").first()).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Settings: the name saved for real
  await dashboardTab(page, "Settings").click();
  await expect(page.getByLabel("Name")).toHaveValue("Ada Lovelace");
  await page.getByLabel("Name").fill("Ada King");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Profile Updated")).toBeVisible();
  await expect(page.getByText("Welcome, Ada King")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Name")).toHaveValue("Ada King");
  // no subscription card for a free user
  await expect(page.getByRole("heading", { name: "Subscription" })).toHaveCount(0);
});

test("premium user: Premium User card with the plan and dates, and a 2160p download", async ({ page }, testInfo) => {
  requireE2eDatabase();
  const email = uniqueEmail("pro");
  await signUp(page, "Grace Hopper", email);
  const periodEnd = new Date(Date.now() + 30 * 86_400_000);
  await queryE2eDatabase(
    `insert into subscriptions (id, user_id, stripe_customer_id, price_id, plan, status, current_period_start, current_period_end)
     select 'sub_e2e_' || id, id, 'cus_e2e_' || id, 'price_pro', 'pro', 'active', now(), $2 from users where email = $1`,
    [email, periodEnd],
  );
  await page.reload();
  await expect(page.getByRole("heading", { name: "Premium User" })).toBeVisible();
  await expect(page.getByTestId("plan-name")).toHaveText("Pro");
  const nextBilling = periodEnd.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  await expect(page.getByTestId("next-billing-date")).toHaveText(nextBilling);
  await expect(page.getByRole("button", { name: "Manage Subscription" })).toBeVisible();

  await lookUp(page, SAMPLE.all);
  const uhd = await downloadFormat(page, testInfo, "Video", "mp4-2160");
  expect(uhd.download.suggestedFilename()).toBe("Sample clip in every quality (2160p).mp4");
  const probe = ffprobe(uhd.file);
  expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 2160 });

  // the home page's downloader knows the plan too (the API reads the session cookie)
  await page.goto("/");
  await lookUp(page, SAMPLE.all);
  await page.getByRole("tab", { name: "Video" }).click();
  await expect(page.getByTestId("format-mp4-2160").getByRole("button", { name: "Download MP4 2160p 4K" })).toBeVisible();
  await page.goto("/dashboard");

  // the Subscription card, and Cancel asks first
  await dashboardTab(page, "Settings").click();
  await expect(page.getByRole("heading", { name: "Subscription" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Update Payment" })).toBeVisible();
  await page.getByRole("link", { name: "Cancel" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Cancel your subscription?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Keep Subscription" }).click();
  await expect(dialog).toHaveCount(0);
});

test("every dashboard tab has no serious accessibility problems, also on a phone", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signUp(page, "Axe Tester", uniqueEmail("axe-dash"));
  for (const size of [{ width: 1280, height: 900 }, { width: 375, height: 800 }]) {
    await page.setViewportSize(size);
    for (const tab of ["Downloads", "History", "Settings"] as const) {
      await dashboardTab(page, tab).click();
      await expect(dashboardTab(page, tab)).toHaveAttribute("aria-selected", "true");
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }));
      expect(serious, `${tab} at ${size.width}px`).toEqual([]);
      // nothing wider than the screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the tabs are links and the settings form posts", async ({ page }) => {
    const email = uniqueEmail("nojs-dash");
    await page.goto("/signup");
    await submitSignupAndConfirm(page, { name: "Alan Turing", email, password: "correct horse battery" });
    await expect(page).toHaveURL(/\/dashboard$/);
    await dashboardTab(page, "History").click();
    await expect(page.getByText("No downloads yet")).toBeVisible();
    await dashboardTab(page, "Settings").click();
    await page.getByLabel("Name").fill("Alan M. Turing");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toContainText("Profile Updated");
    await expect(page.getByText("Welcome, Alan M. Turing")).toBeVisible();
  });
});

test("Settings: download my data as JSON, then delete the account with its password", async ({ page }, testInfo) => {
  const email = uniqueEmail("delete");
  await signUp(page, "Grace Hopper", email);
  await dashboardTab(page, "Settings").click();
  const yourData = page.getByRole("region", { name: "Your data" });

  const downloadPromise = page.waitForEvent("download");
  await yourData.getByRole("link", { name: "Download my data (JSON)" }).click();
  const download = await downloadPromise;
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  expect(download.suggestedFilename()).toMatch(/^my-account-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(readFileSync(file, "utf8")) as { account: { email: string; name: string } };
  expect(exported.account).toMatchObject({ email, name: "Grace Hopper" });

  // a wrong password keeps the account
  await yourData.getByLabel("Your password").fill("not my password");
  await yourData.getByRole("button", { name: "Delete my account" }).click();
  await expect(yourData.getByRole("alert")).toHaveText("That password is not right, so your account was not deleted.");

  await yourData.getByLabel("Your password").fill("correct horse battery");
  await yourData.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(toast(page, "Account Deleted")).toBeVisible();
  // the dashboard is closed to the old session, and the account no longer logs in
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
});
