import { readdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { SAMPLE, ffprobe, lookUp } from "./home-helpers.ts";
import { signUp, subscribe, unzipManifest } from "./support/plans.ts";

/**
 * Issue 31 §2 in the browser, on the embedded defaults (MOCKS=true, the fake Stripe): an
 * Ultimate user saves a download profile in the dashboard's Profiles tab, downloads a video with
 * it in one click on the home page (its format and its file name), and deletes it; picks one in
 * the Bulk tab for a ZIP; a Pro user is told which plan has profiles.
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

test("an Ultimate user picks a profile in the Bulk tab: the ZIP's files take its format and file names, and so do the files of the ZIP the server prepares", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page, "Mae Jemison", "profiles");
  await subscribe(page, "Ultimate");
  const saved = await page.request.post("/api/v1/profiles", {
    data: { name: "Archive", format: "mp4-360", filenameTemplate: "{channel} - {title} [{id}]" },
    headers: { origin: new URL(page.url()).origin, "sec-fetch-site": "same-origin" },
  });
  expect(saved.status()).toBe(201);
  const { id } = (await saved.json()) as { id: string };

  await page.goto("/dashboard?tab=bulk");
  await page.waitForFunction(() => "__reactRouterContext" in window);
  const choice = page.getByRole("group", { name: "Profile" });
  const format = page.getByLabel("Format");
  await expect(choice.getByRole("button", { name: "None" })).toHaveAttribute("aria-pressed", "true");
  await expect(format).toBeEnabled();
  await choice.getByRole("button", { name: "Archive MP4 360p SD" }).click();
  await expect(choice.getByRole("button", { name: "Archive MP4 360p SD" })).toHaveAttribute("aria-pressed", "true");
  await expect(choice.getByRole("button", { name: "None" })).toHaveAttribute("aria-pressed", "false");
  await expect(format).toBeDisabled();
  await expect(format).toHaveValue("mp4-360");
  expect(await seriousViolations(page)).toEqual([]);

  const urls = [SAMPLE.all, SAMPLE.upTo720];
  await page.getByLabel("Links (one per line)").fill(urls.join("\n"));
  const asked = page.waitForRequest((r) => r.url().endsWith("/api/v1/downloads") && r.method() === "POST");
  const saving = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download ZIP" }).click();
  expect((await asked).postDataJSON()).toEqual({ urls, profile: id });
  const download = await saving;
  const zipFile = testInfo.outputPath("profile.zip");
  await download.saveAs(zipFile);
  expect(await download.failure()).toBeNull();
  const dir = testInfo.outputPath("profile");
  const [, ...rows] = unzipManifest(zipFile, dir);
  expect(rows.map((r) => [r[3], r[7]])).toEqual([
    ["mp4-360", "ok"],
    ["mp4-360", "ok"],
  ]);
  // each file named by the profile's template, and 360p
  expect(rows[0]![4]).toBe(`VidFetch Samples - ${SAMPLE.title} [vidfetchAll].mp4`);
  expect(rows[1]![4]).toBe("Tiny Channel - Sample clip up to 720p [vidfetch720].mp4");
  expect(readdirSync(dir).sort()).toEqual([rows[0]![4]!, rows[1]![4]!, "manifest.csv"].sort());
  for (const r of rows) expect(ffprobe(path.join(dir, r[4]!)).streams.find((s) => s.codec_type === "video")).toMatchObject({ height: 360 });

  // None: the format is chosen by hand again
  await choice.getByRole("button", { name: "None" }).click();
  await expect(format).toBeEnabled();

  // the server's job is asked with the profile too, and its ZIP's files are named the same
  await choice.getByRole("button", { name: "Archive MP4 360p SD" }).click();
  const created = page.waitForResponse((r) => r.url().endsWith("/api/v1/jobs") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Prepare on the server" }).click();
  const job = await created;
  expect(job.status()).toBe(201);
  expect(job.request().postDataJSON()).toEqual({ urls, profile: id });
  const status = page.getByRole("status").filter({ hasText: "The server is preparing your ZIP" });
  await expect(status).toBeVisible();
  await status.getByRole("link", { name: "Scheduled" }).click();
  const row = page.getByTestId("job-row").first();
  await expect(row).toContainText("Ready", { timeout: 90_000 });
  const fetching = page.waitForEvent("download");
  await row.getByRole("link", { name: /^Download / }).click();
  const jobZip = testInfo.outputPath("profile-job.zip");
  await (await fetching).saveAs(jobZip);
  const [, ...jobRows] = unzipManifest(jobZip, testInfo.outputPath("profile-job"));
  expect(jobRows.map((r) => [r[3], r[4], r[7]])).toEqual(rows.map((r) => [r[3], r[4], r[7]]));
});
