import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { SAMPLE, ffprobe, lookUp } from "./home-helpers.ts";
import { signUp, subscribe } from "./support/plans.ts";

/**
 * Issue 31 §2 in the browser, on the embedded defaults (MOCKS=true, the fake Stripe): an
 * Ultimate user saves a download profile in the dashboard's Profiles tab, downloads a video with
 * it in one click on the home page (its format and its file name), and deletes it; a Pro user is
 * told which plan has profiles.
 */

async function openProfilesTab(page: Page) {
  await page.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab", { name: "Profiles" }).click();
  await expect(page).toHaveURL(/tab=profiles/);
}

/** axe's serious and critical findings on the page as it is (the embedded player left out). */
async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).exclude("iframe").analyze();
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("an Ultimate user saves a profile, downloads a video with it in one click, and deletes it", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page, "Katherine Johnson", "profiles");
  await subscribe(page, "Ultimate");
  await openProfilesTab(page);
  await expect(page.getByText("You have 0 of 20 profiles.")).toBeVisible();
  await expect(page.getByText("No profiles yet.")).toBeVisible();

  // a refusal is shown by the form, and what was typed stays
  await page.getByLabel("Name", { exact: true }).fill("Archive");
  await page.getByLabel("Format").selectOption({ label: "MP4 360p SD" });
  await page.getByLabel("File name (optional)").fill("{channel} - {size}");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "{size} is not a field" })).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Archive");

  await page.getByLabel("File name (optional)").fill("{channel} - {title} [{id}]");
  await page.getByRole("button", { name: "Save profile" }).click();
  const row = page.getByTestId("profile-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Archive");
  await expect(row).toContainText("MP4 360p SD");
  await expect(row).toContainText("{channel} - {title} [{id}]");
  await expect(page.getByText("You have 1 of 20 profiles.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // one click on the home page: the profile's format, and the name its template gives
  await page.goto("/");
  await page.waitForFunction(() => "__reactRouterContext" in window);
  await lookUp(page, SAMPLE.all);
  const profiles = page.getByRole("region", { name: "Your profiles" });
  await expect(profiles).toBeVisible();
  const saving = page.waitForEvent("download");
  await profiles.getByRole("button", { name: "Download with Archive" }).click();
  const download = await saving;
  expect(download.suggestedFilename()).toBe("VidFetch Samples - Sample clip in every quality [vidfetchAll].mp4");
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  expect(await download.failure()).toBeNull();
  expect(ffprobe(file).streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 360 });
  await expect(profiles.getByRole("button", { name: /Archive/ })).toHaveAttribute("data-state", "success");

  await page.goto("/dashboard?tab=profiles");
  await page.getByRole("button", { name: "Delete profile Archive" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The profile was deleted." }).first()).toBeVisible();
  await expect(page.getByTestId("profile-row")).toHaveCount(0);

  // no profile left: no row above the formats
  await page.goto("/");
  await page.waitForFunction(() => "__reactRouterContext" in window);
  await lookUp(page, SAMPLE.all);
  await expect(page.getByTestId("format-mp4-720")).toBeVisible();
  await expect(page.getByRole("region", { name: "Your profiles" })).toHaveCount(0);
});

test("a Pro user's Profiles tab says which plan has profiles, and offers no form", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "Dorothy Vaughan", "profiles");
  await subscribe(page, "Pro");
  await openProfilesTab(page);
  await expect(page.getByText("Custom download profiles come with the Ultimate plan. Change your plan to use them.")).toBeVisible();
  await expect(page.getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/premium");
  await expect(page.getByRole("button", { name: "Save profile" })).toHaveCount(0);
});
