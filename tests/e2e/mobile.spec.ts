import { expect, test } from "@playwright/test";
import { SAMPLE, downloadFormat, ffprobe, lookUp } from "./home-helpers.ts";

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

test.describe("home on a phone (375 px)", () => {
  test("paste, preview, save MP4 720p, MP3 and the thumbnail; screenshots kept", async ({ page }, testInfo) => {
    const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: name === "01-home" });
    await page.goto("/");
    // nothing wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot("01-home");

    await lookUp(page, SAMPLE.all);
    await expect(page.getByTestId("video-player").locator("iframe")).toBeAttached({ timeout: 5000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByTestId("preview-card").scrollIntoViewIfNeeded();
    await shot("02-preview");

    const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
    expect(ffprobe(mp4.file).streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", width: 1280, height: 720 });
    await page.getByTestId("download-progress").scrollIntoViewIfNeeded();
    await shot("03-mp4-saved");

    const mp3 = await downloadFormat(page, testInfo, "Audio Only", "mp3-128");
    expect(ffprobe(mp3.file).streams.map((s) => s.codec_name)).toContain("mp3");
    const thumb = await downloadFormat(page, testInfo, "Other", "thumbnail-hd");
    expect(thumb.download.suggestedFilename()).toBe("youtube-thumbnail-vidfetchAll.jpg");
    await shot("04-thumbnail-saved");
    await page.screenshot({ path: testInfo.outputPath("05-full-page.png"), fullPage: true });
  });
});
