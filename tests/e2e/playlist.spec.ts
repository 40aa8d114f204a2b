import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { SAMPLE, ffprobe, urlField } from "./home-helpers.ts";
import { parseCsv, signUp, subscribe } from "./support/plans.ts";

/**
 * Issue 30 §3 in the browser, on the embedded defaults (MOCKS=true, the fake Stripe): a playlist
 * link pasted on the home page lists its videos; an Ultimate user downloads the picked ones as one
 * ZIP named after the playlist and follows each video's state; a visitor is offered the videos
 * one by one and told which plan has the ZIP.
 */

const PLAYLIST = "https://www.youtube.com/playlist?list=PLvidfetchSamples01";
const TITLES = ["Sample clip in every quality", "Sample clip up to 720p", "Sample clip with captions"];

async function pastePlaylist(page: Page) {
  await page.goto("/");
  await page.waitForFunction(() => "__reactRouterContext" in window);
  await urlField(page).fill(PLAYLIST);
  await page.getByRole("button", { name: "Download", exact: true }).click();
  const card = page.getByTestId("playlist-card");
  await expect(card.getByRole("heading", { name: "VidFetch sample playlist" })).toBeVisible();
  await expect(card.getByTestId("playlist-count")).toHaveText("3 videos");
  await expect(card.getByTestId("playlist-entry")).toHaveCount(3);
  for (const [i, title] of TITLES.entries()) await expect(card.getByTestId("playlist-entry").nth(i)).toContainText(title);
  return card;
}

test("an Ultimate user downloads two of the playlist's three videos as one ZIP named after it, and sees each one saved", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page, "Katherine Johnson", "playlist");
  await subscribe(page, "Ultimate");
  // at phone width: nothing wider than the screen
  await page.setViewportSize({ width: 375, height: 812 });

  const card = await pastePlaylist(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const videos = card.getByRole("group", { name: "Videos in the ZIP" });
  for (const title of TITLES) await expect(videos.getByRole("checkbox", { name: title })).toBeChecked();
  await expect(card.getByTestId("playlist-selected")).toHaveText("3 of 3 selected");

  // none picked: nothing to download
  await card.getByRole("button", { name: "Select none" }).click();
  await expect(card.getByTestId("playlist-selected")).toHaveText("0 of 3 selected");
  await expect(card.getByRole("button", { name: "Download ZIP" })).toBeDisabled();
  await expect(card.getByText("Pick at least one video.")).toBeVisible();
  await card.getByRole("button", { name: "Select all" }).click();

  await videos.getByRole("checkbox", { name: TITLES[1] }).uncheck();
  await expect(card.getByTestId("playlist-selected")).toHaveText("2 of 3 selected");
  // Ultimate is offered the premium formats too
  await expect(card.getByLabel("Format").locator('option[value="mp4-2160"]')).toHaveCount(1);
  await card.getByLabel("Format").selectOption("mp4-360");

  const downloadPromise = page.waitForEvent("download");
  await card.getByRole("button", { name: "Download ZIP" }).click();
  const download = await downloadPromise;
  const zipFile = testInfo.outputPath("playlist.zip");
  await download.saveAs(zipFile);
  expect(await download.failure()).toBeNull();
  expect(download.suggestedFilename()).toBe("VidFetch sample playlist.zip");

  // each picked video reached Saved; the one left out has no state
  const entries = card.getByTestId("playlist-entry");
  await expect(entries.nth(0).getByTestId("file-state")).toHaveText("Saved", { timeout: 60_000 });
  await expect(entries.nth(2).getByTestId("file-state")).toHaveText("Saved", { timeout: 60_000 });
  await expect(entries.nth(1).getByTestId("file-state")).toHaveCount(0);
  await expect(card.getByTestId("zip-progress")).toContainText("2 of 2 files");
  await expect(card.getByTestId("zip-progress")).toContainText(/\d+(\.\d+)? (KB|MB) so far/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  const dir = testInfo.outputPath("unzipped");
  mkdirSync(dir, { recursive: true });
  execFileSync("unzip", ["-q", "-o", zipFile, "-d", dir]);
  const [header, ...rows] = parseCsv(readFileSync(path.join(dir, "manifest.csv"), "utf8").replace(/^\uFEFF/, ""));
  expect(header).toEqual(["position", "title", "source", "format", "file_name", "bytes", "sha256", "status", "error"]);
  expect(rows.map((r) => [r[0], r[1], r[3], r[7]])).toEqual([
    ["1", TITLES[0], "mp4-360", "ok"],
    ["2", TITLES[2], "mp4-360", "ok"],
  ]);
  expect(rows[0]![2]).toContain("vidfetchAll");
  expect(rows[1]![2]).toContain("vidfetchCap");
  const files = readdirSync(dir).filter((f) => f.endsWith(".mp4"));
  expect(files.sort()).toEqual(rows.map((r) => r[4]!).sort());
  for (const file of files) {
    expect(ffprobe(path.join(dir, file)).streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 360 });
  }
});

test("a visitor sees the playlist's videos and which plan has the ZIP, and downloads one video the usual way", async ({ page }) => {
  const card = await pastePlaylist(page);
  await expect(card.getByText("Downloading a playlist as one ZIP comes with the Ultimate plan.")).toBeVisible();
  await expect(card.getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/premium");
  await expect(card.getByRole("button", { name: "Download ZIP" })).toHaveCount(0);
  await expect(card.getByRole("checkbox")).toHaveCount(0);
  await expect(card.getByRole("list", { name: "Videos in this playlist" })).toBeVisible();
  await expect(card.getByTestId("playlist-entry").nth(0)).toContainText("0:06");

  await card.getByRole("button", { name: `Download this video: ${TITLES[0]}` }).click();
  await expect(urlField(page)).toHaveValue(SAMPLE.all);
  await expect(page.getByTestId("video-title")).toHaveText(SAMPLE.title);
  await expect(page.getByTestId("playlist-card")).toHaveCount(0);
  await expect(page.getByTestId("format-mp4-360").getByRole("button", { name: /Download/ })).toBeVisible();
  // a visitor's premium formats stay locked
  await expect(page.getByTestId("format-mp4-2160").getByRole("link", { name: /Unlock/ })).toBeVisible();

  // a video inside the playlist: its own card, and the playlist a press away
  await urlField(page).fill(`${SAMPLE.all}&list=PLvidfetchSamples01`);
  await page.getByRole("button", { name: "Download", exact: true }).click();
  await expect(page.getByTestId("video-title")).toHaveText(SAMPLE.title);
  await expect(page.getByTestId("part-of-playlist")).toContainText("Part of the playlist VidFetch sample playlist (3 videos)");
  await expect(page.getByTestId("playlist-card")).toHaveCount(0);
  await page.getByRole("button", { name: "Show the playlist" }).click();
  await expect(page.getByTestId("playlist-card").getByTestId("playlist-entry")).toHaveCount(3);
  await expect(page.getByRole("button", { name: "Hide the playlist" })).toHaveAttribute("aria-expanded", "true");
});
