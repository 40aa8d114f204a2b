import AxeBuilder from "@axe-core/playwright";
import { chromium, expect, test, type Locator } from "@playwright/test";
import { CHROMIUM_ARGS } from "../../playwright.config.ts";
import { MOCK_GENERIC_HOST } from "../mocks/platform.ts";
import { SAMPLE, downloadFormat, ffprobe, formatRow, lookUp } from "./home-helpers.ts";
import { startBrowserMediaHost } from "./support/media-host.ts";

/**
 * Clips in the picker (issue 33 §1): a visitor types a start and an end, or takes them from the
 * player, sees the start's first frame, and gets the clip as a file named by its span; a mistake
 * is said next to its field and nothing starts. The sample is 6 s long, with a keyframe every
 * 2 s, so a clip from 0:02 to 0:04 is exactly those 2 s. The player is YouTube's embed (the mock
 * platform's, speaking its protocol) or, for a generic file, the page's own `<video>`.
 */

/** The same sample as a generic direct file (H.264 and AAC, which the system Chromium plays). */
const GENERIC_FILE = `https://${MOCK_GENERIC_HOST}/files/sample-360p.mp4`;

/** Sets a `<video>`'s time as a visitor's seek does, resolved once the element has seeked. */
function seekTo(video: Locator, seconds: number): Promise<void> {
  return video.evaluate(
    (v: HTMLVideoElement, t) =>
      new Promise<void>((resolve) => {
        v.addEventListener("seeked", () => resolve(), { once: true });
        v.currentTime = t;
      }),
    seconds,
  );
}
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

  test("start and end taken from the player, the start's first frame beside it, and the clip named by its span", async ({ page }, testInfo) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    const clip = page.getByRole("group", { name: "Clip (optional)" });
    // the embed (with MOCKS the mock platform's player page, speaking YouTube's IFrame API protocol)
    // reports its time to the page once asked: only then are the buttons offered
    const embed = page.frameLocator('iframe[src*="/embed/vidfetchAll?"]').locator("video");
    await expect.poll(() => embed.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const startHere = clip.getByRole("button", { name: "Start here" });
    await expect(startHere).toBeVisible();
    await expect(startHere).toHaveAccessibleDescription(/pause the player above/);
    await seekTo(embed, 2);
    // the page hears the player's report after the seek
    await expect(async () => {
      await startHere.click();
      await expect(clip.getByLabel("Start", { exact: true })).toHaveValue("0:02");
    }).toPass({ timeout: 5000 });
    await seekTo(embed, 4);
    await expect(async () => {
      await clip.getByRole("button", { name: "End here" }).click();
      await expect(clip.getByLabel("End", { exact: true })).toHaveValue("0:04");
    }).toPass({ timeout: 5000 });
    // the timeline follows the fields
    await expect(clip.getByLabel("Start on timeline")).toHaveValue("2");

    // the first frame at the start, cut by the server, beside the start field
    const preview = clip.getByRole("img", { name: "First frame of the clip, at 0:02" });
    await expect(preview).toBeVisible();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0);
    expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThanOrEqual(320);
    expect(new URL((await preview.getAttribute("src"))!, "http://x").searchParams.get("t")).toBe("2");

    const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
    expect(mp4.download.suggestedFilename()).toBe("Sample clip in every quality (720p) [0.02-0.04].mp4");
    const probe = ffprobe(mp4.file);
    expect(Number(probe.format.duration)).toBeGreaterThan(1.9);
    expect(Number(probe.format.duration)).toBeLessThan(2.2);
  });

  test("a generic file's own <video>: its time read by Start here and End here, the frame at the start, the clip named by its span", async ({ request, baseURL }, testInfo) => {
    // a Chromium of its own, which reaches the mock's generic host as the server does
    const host = await startBrowserMediaHost(request);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: [...CHROMIUM_ARGS, ...host.chromiumArgs] });
    try {
      const page = await (await browser.newContext({ baseURL, serviceWorkers: "block" })).newPage();
      await page.goto("/");
      await lookUp(page, GENERIC_FILE, "sample-360p");
      const clip = page.getByRole("group", { name: "Clip (optional)" });
      const video = page.getByTestId("video-player").locator("video");
      await expect(video).toHaveAttribute("src", GENERIC_FILE);
      // the file plays in the page: its metadata is in, and a frame of it is shown
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight, Math.round(v.duration)])).toEqual([640, 360, SAMPLE.durationSeconds]);
      const startHere = clip.getByRole("button", { name: "Start here" });
      await expect(startHere).toBeVisible();

      await seekTo(video, 2);
      await startHere.click();
      await expect(clip.getByLabel("Start", { exact: true })).toHaveValue("0:02");
      await seekTo(video, 4.5);
      await clip.getByRole("button", { name: "End here" }).click();
      await expect(clip.getByLabel("End", { exact: true })).toHaveValue("0:04.5");
      await expect(clip.getByLabel("Start on timeline")).toHaveValue("2");

      const preview = clip.getByRole("img", { name: "First frame of the clip, at 0:02" });
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(320);
      const src = new URL((await preview.getAttribute("src"))!, "http://x");
      expect([src.searchParams.get("url"), src.searchParams.get("t")]).toEqual([GENERIC_FILE, "2"]);

      const file = await downloadFormat(page, testInfo, "Video", "mp4-360");
      expect(file.download.suggestedFilename()).toBe("sample-360p (360p) [0.02-0.04.5].mp4");
      const probe = ffprobe(file.file);
      expect(Number(probe.format.duration)).toBeGreaterThan(2.4);
      expect(Number(probe.format.duration)).toBeLessThan(2.7);
      expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
    } finally {
      await browser.close();
      await host.close();
    }
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
      // the start's row keeps its field, the player's button and the first frame on the screen
      const row = [start, page.getByRole("button", { name: "Start here" }), page.getByRole("img", { name: "First frame of the clip, at 0:01" })];
      for (const item of row) {
        await expect(item).toBeVisible();
        const box = (await item.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(375);
      }
      expect((await start.boundingBox())!.width).toBeGreaterThanOrEqual(96);
    });
  });
});
