import { expect, test } from "@playwright/test";
import { downloadFormat, ffprobe, lookUp, urlField } from "./home-helpers.ts";

/**
 * Issue 12: a Facebook link through the form. The e2e server's yt-dlp is a fake describing a
 * video on the mock platform (scripts/e2e-server.mjs); our engine fetches and remuxes the bytes.
 */
test.describe("home: a Facebook link", () => {
  test("is named while typing, resolves and downloads as MP4", async ({ page }, testInfo) => {
    await page.goto("/");
    await urlField(page).fill("https://www.facebook.com/SomePage");
    await expect(page.getByText("Please enter a valid Facebook video link")).toBeVisible();
    await urlField(page).fill("https://www.facebook.com/watch/?v=1234567890");
    await expect(page.getByText("Facebook link", { exact: true })).toBeVisible();

    await lookUp(page, "https://www.facebook.com/watch/?v=1234567890", "Harbour walk (Facebook)");
    const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
    expect(mp4.download.suggestedFilename()).toMatch(/^Harbour walk \(Facebook\).*\.mp4$/);
    const probe = ffprobe(mp4.file);
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
  });

  test("a link yt-dlp cannot read gets its message, not a network error", async ({ page }) => {
    await page.goto("/");
    await urlField(page).fill("https://www.facebook.com/reel/112233445566");
    await page.getByRole("button", { name: "Download", exact: true }).click();
    await expect(page.getByTestId("lookup-error")).toContainText("This link is not a supported video or media link.");
    await expect(page.getByText(/Unable to connect/)).toHaveCount(0);
  });
});

/**
 * The planned platforms through the same (fake) yt-dlp: each is named while typing and resolves
 * in the form; Vimeo's 720p (an HLS rendition) downloads as a real MP4.
 */
test.describe("home: the planned platforms resolve through yt-dlp on this server", () => {
  for (const [name, link] of [
    ["TikTok", "https://www.tiktok.com/@someone/video/7301234567890123456"],
    ["Twitter (X)", "https://x.com/someone/status/1720000000000000000"],
    ["Vimeo", "https://vimeo.com/123456789"],
    ["Dailymotion", "https://www.dailymotion.com/video/x8abcde"],
    ["Twitch", "https://www.twitch.tv/videos/1987654321"],
  ] as const) {
    test(`${name}: ${link}`, async ({ page }, testInfo) => {
      await page.goto("/");
      await urlField(page).fill(link);
      await expect(page.getByText(`${name} link`, { exact: true })).toBeVisible();
      const title = `Harbour walk (${name === "Twitter (X)" ? "X" : name})`;
      await lookUp(page, link, title);
      if (name !== "Vimeo") return;
      const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
      const probe = ffprobe(mp4.file);
      expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
      expect(probe.streams.find((s) => s.codec_type === "audio")).toMatchObject({ codec_name: "aac" });
    });
  }
});
