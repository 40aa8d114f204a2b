import { spawnSync } from "node:child_process";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { SAMPLE, downloadFormat, ffprobe, formatRow, lookUp } from "./home-helpers.ts";

/** The integrated loudness of a file as ffmpeg's EBU R128 meter reads it (LUFS). */
function integratedLoudness(file: string): number {
  // the meter's summary is written to stderr; its last "I:" line is the whole file's
  const { stderr } = spawnSync("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", "ebur128", "-f", "null", "-"], { encoding: "utf8" });
  return Number([...stderr.matchAll(/I:\s+(-?[\d.]+) LUFS/g)].at(-1)?.[1]);
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
  });
});
