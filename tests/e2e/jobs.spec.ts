import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { SAMPLE, ffprobe } from "./home-helpers.ts";
import { parseCsv, signUp, subscribe, unzipManifest } from "./support/plans.ts";

/**
 * Issue 30 §5 in the browser, on the embedded defaults (MOCKS=true, the fake Stripe): a Pro
 * user's scheduled download arrives in the dashboard, an Ultimate user's Bulk tab saves one ZIP
 * with a manifest, and the API refuses both features to a free account.
 */

async function openTab(page: Page, name: "Scheduled" | "Bulk") {
  await page.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab", { name }).click();
  await expect(page).toHaveURL(new RegExp(`tab=${name.toLowerCase()}`));
}

/** A same-origin API call with the session cookie, as the page's own fetch would make it. */
function postApi(page: Page, apiPath: string, data: unknown) {
  return page.request.post(apiPath, { data, headers: { origin: new URL(page.url()).origin, "sec-fetch-site": "same-origin" } });
}

test("a Pro user schedules a download for now; it becomes Ready in the list and its file is the format", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page, "Grace Hopper");
  await subscribe(page, "Pro");

  // Pro has no bulk downloads: the Bulk tab says which plan has them
  await openTab(page, "Bulk");
  await expect(page.getByText("Bulk downloads come with the Ultimate plan. Change your plan to use them.")).toBeVisible();
  await expect(page.getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/premium");

  await openTab(page, "Scheduled");
  await page.getByLabel("Video URL").fill(SAMPLE.upTo720);
  await page.getByLabel("Format").selectOption("mp4-360");
  // the current minute in the browser's own zone: due already, so the queue runs it at once
  const thisMinute = await page.evaluate(() => {
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  });
  await page.getByLabel(/^Date and time/).fill(thisMinute);
  await page.getByRole("button", { name: "Schedule download" }).click();

  const row = page.getByTestId("job-row").first();
  await expect(row).toBeVisible();
  await expect(row).toContainText("360p");
  // the list refreshes itself while the job is due or running: no reload here
  await expect(row).toContainText("Ready", { timeout: 90_000 });

  const link = row.getByRole("link", { name: /^Download / });
  const downloadPromise = page.waitForEvent("download");
  await link.click();
  const download = await downloadPromise;
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  expect(await download.failure()).toBeNull();
  expect(download.suggestedFilename()).toMatch(/\.mp4$/);
  const probe = ffprobe(file);
  expect(probe.format.format_name).toContain("mp4");
  expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 360 });
  expect(probe.streams.some((s) => s.codec_type === "audio")).toBe(true);

  // a job that ran cannot be canceled: the dashboard's form answers the refusal in words (409),
  // though the job queue that refused lives in the host's build and the form in the app's
  const { jobs } = (await (await page.request.get("/api/v1/jobs")).json()) as { jobs: Array<{ id: string; status: string }> };
  const done = jobs.find((j) => j.status === "done")!;
  const refused = await page.request.post("/dashboard?tab=scheduled", { form: { intent: "cancel-job", jobId: done.id }, headers: { origin: new URL(page.url()).origin } });
  expect(refused.status()).toBe(409);
  expect(await refused.text()).toContain("This job has already started or ended, so it can no longer be changed or canceled.");
});

test("an Ultimate user downloads 3 links and a broken one as one ZIP from the Bulk tab; the manifest lists each and the files play", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page, "Ada Lovelace");
  await subscribe(page, "Ultimate");
  // the whole bulk journey at phone width: nothing wider than the screen
  await page.setViewportSize({ width: 375, height: 812 });
  await openTab(page, "Bulk");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  const links = page.getByLabel("Links (one per line)");
  const button = page.getByRole("button", { name: "Download ZIP" });
  await expect(page.getByText(/manifest\.csv/)).toBeVisible();

  // the count follows the typing, and more links than the plan allows are refused before any request
  await links.fill(Array.from({ length: 51 }, (_, i) => `https://youtu.be/clip${i}`).join("\n"));
  await expect(page.getByTestId("bulk-count")).toHaveText("51 of 50 links");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await button.click();
  await expect(page.getByRole("alert")).toHaveText("A bulk download takes at most 50 links; this one has 51.");

  // a line that is no link at all: the API's own message, shown in place
  await links.fill(`${SAMPLE.all}\nnot a link`);
  await button.click();
  await expect(page.getByRole("alert")).toContainText("Link 2:");
  await expect(page.getByRole("alert")).toBeFocused();

  const requested = [SAMPLE.all, SAMPLE.upTo720, SAMPLE.captions, SAMPLE.private];
  const VIDEO_IDS = ["vidfetchAll", "vidfetch720", "vidfetchCap", "vidfetchPrv"];
  await links.fill(`${requested.join("\n")}\n\n`);
  await expect(page.getByTestId("bulk-count")).toHaveText("4 of 50 links");
  await page.getByLabel("Format").selectOption("mp4-360");
  const downloadPromise = page.waitForEvent("download");
  await button.click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^VidFetch bulk \d{4}-\d{2}-\d{2}\.zip$/);
  const zipFile = testInfo.outputPath("bulk.zip");
  await download.saveAs(zipFile);
  expect(await download.failure()).toBeNull();
  await expect(page.getByRole("status").filter({ hasText: "Your browser is saving" })).toBeVisible();

  const dir = testInfo.outputPath("unzipped");
  mkdirSync(dir, { recursive: true });
  execFileSync("unzip", ["-q", "-o", zipFile, "-d", dir]);

  const manifest = readFileSync(path.join(dir, "manifest.csv"), "utf8");
  expect(manifest.startsWith("\uFEFF")).toBe(true);
  const [header, ...rows] = parseCsv(manifest.slice(1));
  expect(header).toEqual(["position", "title", "source", "format", "file_name", "bytes", "sha256", "status", "error"]);
  expect(rows.map((r) => r[0])).toEqual(["1", "2", "3", "4"]);
  expect(rows.map((r) => r[3])).toEqual(["mp4-360", "mp4-360", "mp4-360", "mp4-360"]);
  expect(rows.map((r) => r[7])).toEqual(["ok", "ok", "ok", "failed"]);
  expect(rows[0]![1]).toBe(SAMPLE.title);

  // the broken link is listed with its error and no file
  expect(rows[3]).toEqual(["4", "", expect.stringContaining("vidfetchPrv"), "mp4-360", "", "", "", "failed", "This video is private."]);

  // each listed file is in the archive with the manifest's size and checksum, and plays as 360p H.264
  const okRows = rows.filter((r) => r[7] === "ok");
  expect(new Set(okRows.map((r) => r[4])).size).toBe(3);
  for (const r of okRows) {
    const [, , source, , fileName, bytes, sha256] = r as [string, string, string, string, string, string, string];
    expect(source).toContain(VIDEO_IDS[Number(r[0]) - 1]);
    const entry = path.join(dir, fileName);
    const content = readFileSync(entry);
    expect(content.length).toBe(Number(bytes));
    expect(createHash("sha256").update(content).digest("hex")).toBe(sha256);
    const video = ffprobe(entry).streams.find((s) => s.codec_type === "video");
    expect(video).toMatchObject({ codec_name: "h264", height: 360 });
  }
  expect(readdirSync(dir).sort()).toEqual([...okRows.map((r) => r[4]!), "manifest.csv"].sort());
});

test("a free user is refused scheduled and bulk downloads by the API with 403 plan.required, and the Bulk tab says so", async ({ page }) => {
  await signUp(page, "Alan Turing");

  const job = await postApi(page, "/api/v1/jobs", { url: SAMPLE.all, format: "mp4-360", runAt: new Date(Date.now() + 3600_000).toISOString() });
  expect(job.status()).toBe(403);
  expect(((await job.json()) as { error: { code: string } }).error.code).toBe("plan.required");

  const bulk = await postApi(page, "/api/v1/downloads", { urls: [SAMPLE.all, SAMPLE.upTo720], format: "mp4-360" });
  expect(bulk.status()).toBe(403);
  const body = (await bulk.json()) as { error: { code: string; message: string } };
  expect(body.error).toMatchObject({ code: "plan.required", message: "Bulk downloads come with the Ultimate plan. Subscribe to use them." });

  // a playlist, directly or as a job, and a list of links as a job: the same refusal
  const playlist = "https://www.youtube.com/playlist?list=PLvidfetchSamples01";
  for (const [apiPath, data] of [
    ["/api/v1/downloads", { url: playlist, format: "mp4-360" }],
    ["/api/v1/jobs", { url: playlist, format: "mp4-360" }],
    ["/api/v1/jobs", { urls: [SAMPLE.all, SAMPLE.upTo720], format: "mp4-360" }],
  ] as const) {
    const refused = await postApi(page, apiPath, data);
    expect(refused.status(), apiPath).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe("Bulk downloads come with the Ultimate plan. Subscribe to use them.");
  }

  await openTab(page, "Bulk");
  await expect(page.getByText("Bulk downloads come with the Ultimate plan. Subscribe to use them.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Download ZIP" })).toHaveCount(0);
});

test("an Ultimate user has the server prepare a ZIP from the Bulk tab; it arrives in the Scheduled tab and holds each file", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page, "Mary Jackson");
  await subscribe(page, "Ultimate");
  await openTab(page, "Bulk");
  await page.getByLabel("Links (one per line)").fill(`${SAMPLE.all}\n${SAMPLE.upTo720}`);
  await page.getByLabel("Format").selectOption("mp3-128");
  await page.getByRole("button", { name: "Prepare on the server" }).click();
  const status = page.getByRole("status").filter({ hasText: "The server is preparing your ZIP" });
  await expect(status).toBeVisible();

  await status.getByRole("link", { name: "Scheduled" }).click();
  await expect(page).toHaveURL(/tab=scheduled/);
  const row = page.getByTestId("job-row").first();
  await expect(row).toContainText("ZIP of 2 links");
  await expect(row).toContainText("Ready", { timeout: 90_000 });
  await expect(row).toContainText("2 of 2 files");

  const downloadPromise = page.waitForEvent("download");
  await row.getByRole("link", { name: /^Download / }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^VidFetch bulk \d{4}-\d{2}-\d{2}\.zip$/);
  const zipFile = testInfo.outputPath("job.zip");
  await download.saveAs(zipFile);
  const dir = testInfo.outputPath("job");
  const [, ...rows] = unzipManifest(zipFile, dir);
  expect(rows.map((r) => [r[0], r[7]])).toEqual([
    ["1", "ok"],
    ["2", "ok"],
  ]);
  for (const r of rows) expect(ffprobe(path.join(dir, r[4]!)).format.format_name).toBe("mp3");
});
