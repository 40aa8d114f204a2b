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
    await expect(page.getByText("This link is not a supported video or media link.")).toBeVisible();
    await expect(page.getByText(/Unable to connect/)).toHaveCount(0);
  });
});
