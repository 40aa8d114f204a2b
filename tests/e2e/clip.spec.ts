import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { SAMPLE, downloadFormat, ffprobe, formatRow, lookUp } from "./home-helpers.ts";

/**
 * Clips in the picker (issue 33 §1): a visitor types a start and an end and gets the clip as a
 * file; a mistake is said next to its field and nothing starts. The sample is 6 s long, with a
 * keyframe every 2 s, so a clip from 0:02 to 0:04 is exactly those 2 s.
 */
test.describe("a clip from the picker", () => {
  test("typed start and end give a file of that length, with its size shown as an estimate", async ({ page }, testInfo) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    const clip = page.getByRole("group", { name: "Clip (optional)" });
    await expect(clip).toBeVisible();
    const whole = await formatRow(page, "mp4-720").getByTestId("format-size").textContent();
    await clip.getByLabel("Start", { exact: true }).fill("0:02");
    // the end dragged on the timeline writes its time into the field
    await clip.getByLabel("End on timeline").fill("4");
    await expect(clip.getByLabel("End", { exact: true })).toHaveValue("0:04");
    const size = formatRow(page, "mp4-720").getByTestId("format-size");
    await expect(size).toHaveText(/^~/);
    expect(await size.textContent()).not.toBe(whole);
    await expect(formatRow(page, "mp4-720")).toContainText("(clip, estimated)");

    const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
    const probe = ffprobe(mp4.file);
    expect(Number(probe.format.duration)).toBeGreaterThan(1.9);
    expect(Number(probe.format.duration)).toBeLessThan(2.2);
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
  });

  test("a mistake is said under its field, announced, and no download starts", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    const clip = page.getByTestId("clip-fields");
    await clip.getByLabel("Start", { exact: true }).fill("0:04");
    await clip.getByLabel("End", { exact: true }).fill("0:02");
    let downloads = 0;
    page.on("download", () => downloads++);
    await formatRow(page, "mp4-720").getByRole("button", { name: /Download/ }).click();
    const error = clip.getByRole("alert");
    await expect(error).toHaveText("The end must come after the start.");
    await expect(clip.getByLabel("End", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(clip.getByLabel("End", { exact: true })).toHaveAccessibleDescription(/The end must come after the start\./);
    // past the video's end
    await clip.getByLabel("End", { exact: true }).fill("0:30");
    await formatRow(page, "mp4-720").getByRole("button", { name: /Download/ }).click();
    await expect(error).toHaveText("The end is past the end of the video. The video is 0:06 long.");
    await page.waitForTimeout(500);
    expect(downloads).toBe(0);
    const violations = (await new AxeBuilder({ page }).include('[data-testid="clip-fields"]').analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(violations.map((v) => v.id)).toEqual([]);
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

    test("the fields fit the screen, stack, and are large enough to tap", async ({ page }) => {
      await page.goto("/");
      await lookUp(page, SAMPLE.all);
      const start = page.getByTestId("clip-start");
      const end = page.getByTestId("clip-end");
      const [a, b] = [(await start.boundingBox())!, (await end.boundingBox())!];
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + a.width).toBeLessThanOrEqual(375);
      expect(b.y).toBeGreaterThan(a.y + a.height - 1);
      expect(a.height).toBeGreaterThanOrEqual(40);
      await start.tap();
      await start.fill("1");
      await expect(start).toHaveValue("1");
    });
  });
});
