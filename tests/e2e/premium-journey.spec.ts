import { expect, test, type Page } from "@playwright/test";
import { SAMPLE, downloadFormat, ffprobe, lookUp } from "./home-helpers.ts";
import { submitSignupAndConfirm } from "./support/accounts.ts";

/**
 * Issue 9's whole journey on the embedded defaults (MOCKS=true, the fake Stripe, PGlite or
 * PostgreSQL alike): no benefit before a payment Stripe confirmed, every benefit after it.
 */
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function signUp(page: Page, name: string) {
  await page.goto("/signup");
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await submitSignupAndConfirm(page, { name, email: uniqueEmail("journey"), password: "correct horse battery" });
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** POST /api/v1/downloads as the page's own fetch would (same origin, the session cookie). */
function createDownload(page: Page, format: string) {
  return page.request.post("/api/v1/downloads", {
    data: { url: SAMPLE.all, format },
    headers: { origin: new URL(page.url()).origin, "sec-fetch-site": "same-origin" },
  });
}

test("sign up, free until paid, Pro after the fake Checkout's Pay: plan card, 2160p download, History; logout guards the dashboard", async ({ page }, testInfo) => {
  await signUp(page, "Katherine Johnson");
  await expect(page.getByRole("heading", { name: "Free User" })).toBeVisible();

  // a free account cannot have 2160p, whatever the client sends
  const refused = await createDownload(page, "mp4-2160");
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("format.premium");

  await page.goto("/premium");
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await page.waitForFunction(() => "__reactRouterContext" in window);
  await page.getByRole("button", { name: "Subscribe to Pro" }).click();
  await expect(page.getByRole("heading", { name: "Subscribe to Pro" })).toBeVisible();

  // at the checkout page nothing is granted yet
  expect((await createDownload(page, "mp4-2160")).status()).toBe(403);

  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await page.getByRole("link", { name: "Go to Dashboard" }).click();

  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByRole("heading", { name: "Premium User" })).toBeVisible();
  await expect(page.getByTestId("plan-name")).toHaveText("Pro");
  // the trial's end is the first billing date: 7 days from now
  const nextBilling = new Date(Date.now() + 7 * 86_400_000).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  await expect(page.getByTestId("next-billing-date")).toHaveText(nextBilling);

  // the dashboard's downloader, with a Pro user's entitlements: 2160p for real
  await lookUp(page, SAMPLE.all);
  const uhd = await downloadFormat(page, testInfo, "Video", "mp4-2160");
  const video = ffprobe(uhd.file).streams.find((s) => s.codec_type === "video");
  expect(video).toMatchObject({ codec_name: "h264", height: 2160 });

  // the server recorded the download in the user's History
  await expect(async () => {
    await page.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab", { name: "History" }).click();
    const row = page.getByTestId("history-row").first();
    await expect(row).toContainText(SAMPLE.title, { timeout: 1000 });
    await expect(row).toContainText("2160p");
    await expect(row).toContainText("Done");
  }).toPass({ timeout: 15_000 });

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByText("Authentication Required").first()).toBeVisible();
  // logged out again: anonymous callers get no 2160p either
  expect((await createDownload(page, "mp4-2160")).status()).toBe(403);
});
