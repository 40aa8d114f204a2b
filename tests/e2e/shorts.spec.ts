import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { SAMPLE, downloadFormat, ffprobe, urlField } from "./home-helpers.ts";

test.describe("Shorts downloader", () => {
  test("the page's sections and tabs", async ({ page }) => {
    await page.goto("/shorts-downloader");
    await expect(page.getByRole("heading", { level: 1, name: "YouTube Shorts Downloader" })).toBeVisible();
    await expect(page.locator("section[aria-labelledby=shorts-steps-heading] ol > li")).toHaveCount(4);
    await expect(page.getByRole("complementary", { name: "Copyright notice" })).toContainText("For personal use only.");
    await expect(page.getByRole("tab")).toHaveText(["Available Formats", "FAQ", "Tips"]);
    await expect(page.getByRole("tabpanel")).toContainText("MP4 HD");
    await page.getByRole("tab", { name: "FAQ" }).click();
    await expect(page.getByRole("tabpanel")).toContainText("Up to 1080p");
    await page.getByRole("tab", { name: "Tips" }).click();
    await expect(page.getByRole("tabpanel")).toContainText("Premium users");
    const r = await new AxeBuilder({ page }).exclude("iframe").analyze();
    expect(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  });

  test("a Shorts link downloads for real through the engine", async ({ page }, testInfo) => {
    await page.goto("/shorts-downloader");
    await page.getByRole("button", { name: "Shorts link" }).click();
    await expect(urlField(page)).toHaveValue(SAMPLE.shorts);
    await page.getByRole("button", { name: "Download", exact: true }).click();
    await expect(page.getByTestId("video-title")).toHaveText("Sample clip with captions");
    // Shorts offer video and audio only
    await expect(page.getByTestId("preview-card").getByRole("tab")).toHaveText(["Video", "Audio Only"]);
    const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
    const probe = ffprobe(mp4.file);
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(probe.streams.some((s) => s.codec_type === "audio")).toBe(true);
  });

  test("/shorts-downloader?url= resolves at once", async ({ page }) => {
    await page.goto(`/shorts-downloader?url=${encodeURIComponent(SAMPLE.shorts)}`);
    await expect(urlField(page)).toHaveValue(SAMPLE.shorts);
    await expect(page.getByTestId("video-title")).toHaveText("Sample clip with captions");
  });
});
