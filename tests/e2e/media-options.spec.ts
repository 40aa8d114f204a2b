import { execFileSync, spawnSync } from "node:child_process";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { SAMPLE, downloadFormat, ffprobe, formatRow, lookUp } from "./home-helpers.ts";
import { signUp, subscribe } from "./support/plans.ts";

/** The integrated loudness of a file as ffmpeg's EBU R128 meter reads it (LUFS). */
function integratedLoudness(file: string): number {
  // the meter's summary is written to stderr; its last "I:" line is the whole file's
  const { stderr } = spawnSync("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", "ebur128", "-f", "null", "-"], { encoding: "utf8" });
  return Number([...stderr.matchAll(/I:\s+(-?[\d.]+) LUFS/g)].at(-1)?.[1]);
}

/** The mock platform's video in three chapters with English captions (tests/mocks/platform.ts). */
const CHAPTERED = { url: "https://www.youtube.com/watch?v=vidfetchChp", title: "Sample clip with chapters and captions" };

/**
 * Press a format's download button and take the API's answer: the body the picker posted, and then
 * either the file the browser saved under the ticket's name or, for a refusal, the API's own message
 * under the format (the catalogue's words, e.g. subtitles.unavailable's for a burn on a server without libass).
 */
async function pressFormat(page: Page, testInfo: TestInfo, tab: "Video" | "Audio Only", formatId: string) {
  await page.getByRole("tab", { name: tab }).click();
  const row = formatRow(page, formatId);
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/v1/downloads"));
  const saved = page.waitForEvent("download").catch(() => null);
  await row.getByRole("button", { name: /Download/ }).click();
  const res = await answered;
  const body = res.request().postDataJSON() as Record<string, unknown>;
  const answer = (await res.json()) as { filename?: string; error?: { code: string; message: string } };
  if (!res.ok()) {
    await expect(row.getByTestId("format-error")).toHaveText(answer.error!.message);
    return { body, answer, file: null };
  }
  const download = (await saved)!;
  expect(download.suggestedFilename()).toBe(answer.filename);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  return { body, answer, file };
}

/**
 * The picker's loudness switch and SponsorBlock fieldset (issue 33 §4, §5): an MP3 picked with
 * "Even out loudness" on is asked for with normalize and arrives as a file; the SponsorBlock
 * choice is a labelled fieldset on a YouTube video, usable from the keyboard and at phone width.
 */
test.describe("media options in the picker", () => {
  test("an MP3 with loudness evened out is asked for with normalize and arrives", async ({ page }, testInfo) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    await page.getByRole("tab", { name: "Audio Only" }).click();
    const normalize = page.getByRole("switch", { name: "Even out loudness (−14 LUFS)" });
    await expect(normalize).toHaveAccessibleDescription(/Applies to MP3, M4A and AAC files/);
    await expect(normalize).not.toBeChecked();
    await normalize.check();
    const bodies: unknown[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/v1/downloads")) bodies.push(r.postDataJSON());
    });
    const mp3 = await downloadFormat(page, testInfo, "Audio Only", "mp3-128");
    expect(bodies).toEqual([{ url: SAMPLE.all, format: "mp3-128", normalize: true }]);
    const probe = ffprobe(mp3.file);
    expect(probe.streams.map((s) => s.codec_name)).toContain("mp3");
    expect(Math.abs(integratedLoudness(mp3.file) - -14)).toBeLessThanOrEqual(1.5);
    // the switch is the Audio tab's alone
    await page.getByRole("tab", { name: "Video" }).click();
    await expect(page.getByRole("switch", { name: /Even out loudness/ })).toHaveCount(0);
  });

  test("SponsorBlock is a fieldset of labelled checkboxes and a choice, by keyboard, with chapters off in a bare file", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    const fieldset = page.getByRole("group", { name: "SponsorBlock segments" });
    await expect(fieldset).toBeVisible();
    for (const name of ["Sponsor", "Self-promotion", "Interaction reminder", "Intro", "Outro"]) await expect(fieldset.getByRole("checkbox", { name, exact: true })).not.toBeChecked();
    await fieldset.getByRole("checkbox", { name: "Sponsor", exact: true }).focus();
    await page.keyboard.press("Space");
    await expect(fieldset.getByRole("checkbox", { name: "Sponsor", exact: true })).toBeChecked();
    const choice = fieldset.getByRole("group", { name: "With the picked segments" });
    await expect(choice.getByRole("radio", { name: "Cut out" })).toBeChecked();
    await choice.getByRole("radio", { name: "Mark as chapters" }).check();
    await page.getByRole("tabpanel").getByRole("switch", { name: "Leave files bare" }).check();
    const chapters = choice.getByRole("radio", { name: "Mark as chapters" });
    await expect(chapters).toBeDisabled();
    await expect(chapters).toHaveAccessibleDescription("Chapters are written with the tags, so they cannot be marked while files are left bare.");
    await expect(choice.getByRole("radio", { name: "Cut out" })).toBeChecked();
    const violations = (await new AxeBuilder({ page }).include('[data-testid="sponsorblock-fields"]').analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(violations.map((v) => v.id)).toEqual([]);
    await expect(formatRow(page, "mp4-720")).toBeVisible();
  });

  test("a visitor sees subtitles in the video as a Pro choice, and splits a video by chapter into a ZIP", async ({ page }, testInfo) => {
    await page.goto("/");
    await lookUp(page, CHAPTERED.url, CHAPTERED.title);
    // subtitles in the video: disabled on Off, saying which plans have them, with the way there
    const subtitles = page.getByRole("combobox", { name: "Subtitles in the video" });
    await expect(subtitles).toBeDisabled();
    await expect(subtitles).toHaveValue("");
    await expect(subtitles).toHaveAccessibleDescription("Premium feature: subtitles in the video come with the Pro and Ultimate plans. See the plans");
    await expect(page.getByTestId("subtitles-in-video").getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/premium");
    // the split is free: a switch, reached and turned on by keyboard, on the Video and Audio tabs
    const split = page.getByRole("tabpanel").getByRole("switch", { name: "One file per chapter (ZIP)" });
    await expect(split).toHaveAccessibleDescription(/This video has 3 chapters/);
    await split.focus();
    await page.keyboard.press("Space");
    await expect(split).toBeChecked();
    const mp4 = await pressFormat(page, testInfo, "Video", "mp4-360");
    expect(mp4.body).toEqual({ url: CHAPTERED.url, format: "mp4-360", chapters: "split" });
    expect(mp4.answer.filename).toMatch(/ - chapters\.zip$/);
    const entries = execFileSync("unzip", ["-Z1", mp4.file!], { encoding: "utf8" }).split("\n").filter((n) => n.endsWith(".mp4"));
    expect(entries).toEqual(["01 - Opening.mp4", "02 - Middle.mp4", "03 - Closing.mp4"]);
    // the Audio tab has the switch too; the thumbnail's tab does not
    await page.getByRole("tab", { name: "Audio Only" }).click();
    await expect(page.getByRole("tabpanel").getByRole("switch", { name: "One file per chapter (ZIP)" })).toBeVisible();
    await page.getByRole("tab", { name: "Other" }).click();
    await expect(page.getByRole("tabpanel").getByRole("switch", { name: "One file per chapter (ZIP)" })).toHaveCount(0);
    // a video without chapters has no switch
    await lookUp(page, SAMPLE.all);
    await page.getByRole("tab", { name: "Video" }).click();
    await expect(page.getByRole("switch", { name: "One file per chapter (ZIP)" })).toHaveCount(0);
  });

  test("a Pro user picks subtitles in the video, burned into an MP4 or as a WEBM's track, and each is asked for and arrives so", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    await signUp(page, "Ada Lovelace", "burn");
    await subscribe(page, "Pro");
    await page.goto("/");
    await lookUp(page, CHAPTERED.url, CHAPTERED.title);
    const subtitles = page.getByRole("combobox", { name: "Subtitles in the video" });
    await expect(subtitles).toBeEnabled();
    await expect(subtitles).toHaveAccessibleDescription("For MP4 and WEBM files.");
    await expect(subtitles.locator("option")).toHaveText(["Off", "English"]);
    // by keyboard: the select, then the mode's radios
    await subtitles.focus();
    await subtitles.selectOption({ label: "English" });
    const how = page.getByRole("group", { name: "Show them as" });
    await expect(how.getByRole("radio", { name: "Selectable track" })).toBeChecked();
    await how.getByRole("radio", { name: "Selectable track" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(how.getByRole("radio", { name: "Burned into the picture" })).toBeChecked();
    await expect(how.getByRole("radio", { name: "Burned into the picture" })).toHaveAccessibleDescription(/the video is re-encoded/);
    const burned = await pressFormat(page, testInfo, "Video", "mp4-360");
    expect(burned.body).toEqual({ url: CHAPTERED.url, format: "mp4-360", subtitles: { language: "en", mode: "burn" } });
    // a server whose ffmpeg cannot draw subtitles (no libass) refuses a burn with a 422: the row then says the API's words
    // burned in, they are part of the picture: no subtitle stream (the MP4's chapters are a data track)
    if (burned.file) {
      const types = ffprobe(burned.file).streams.map((s) => s.codec_type);
      expect(types).toEqual(expect.arrayContaining(["video", "audio"]));
      expect(types).not.toContain("subtitle");
    }
    // back to a selectable track: a WEBM carries it as a subtitle stream beside the picture and sound
    await how.getByRole("radio", { name: "Burned into the picture" }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(how.getByRole("radio", { name: "Selectable track" })).toBeChecked();
    const soft = await pressFormat(page, testInfo, "Video", "webm");
    expect(soft.body).toEqual({ url: CHAPTERED.url, format: "webm", subtitles: { language: "en", mode: "soft" } });
    expect(ffprobe(soft.file!).streams.map((s) => s.codec_type)).toEqual(expect.arrayContaining(["video", "audio", "subtitle"]));
    const violations = (await new AxeBuilder({ page }).include('[data-testid="subtitles-in-video"]').analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(violations.map((v) => v.id)).toEqual([]);
    // audio files do not carry them: an M4A is asked for without
    const m4a = await pressFormat(page, testInfo, "Audio Only", "m4a");
    expect(m4a.body).toEqual({ url: CHAPTERED.url, format: "m4a" });
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

    test("the options fit 360 px without scrolling sideways", async ({ page }) => {
      await page.goto("/");
      await lookUp(page, SAMPLE.all);
      await expect(page.getByTestId("sponsorblock-fields")).toBeVisible();
      await page.getByRole("tab", { name: "Audio Only" }).click();
      await expect(page.getByTestId("normalize-switch")).toBeVisible();
      const box = (await page.getByTestId("sponsorblock-fields").last().boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(360);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    });

    test("subtitles in the video and the split by chapter fit 360 px", async ({ page }) => {
      await page.goto("/");
      await lookUp(page, CHAPTERED.url, CHAPTERED.title);
      for (const id of ["subtitles-in-video", "chapters-switch"]) {
        const box = (await page.getByTestId(id).boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(360);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    });
  });
});
