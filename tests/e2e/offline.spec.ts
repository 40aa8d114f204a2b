import { expect, test } from "@playwright/test";
import { SAMPLE, ffprobe, formatRow, lookUp } from "./home-helpers.ts";

test.describe("home: offline queue", () => {
  test("offline, a click queues; back online, processing saves the file", async ({ page, context }, testInfo) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);

    await context.setOffline(true);
    await expect(page.getByRole("alert").filter({ hasText: "You're Offline" }).first()).toBeVisible();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "You're Offline" })).toBeVisible();

    await formatRow(page, "mp4-720").getByRole("button", { name: /MP4 720p HD/ }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Added to download queue" })).toBeVisible();
    await expect(page.getByTestId("queue-entry")).toHaveCount(1);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("settings") ?? "{}") as { downloadQueue?: string[] });
    expect(stored.downloadQueue).toEqual(["vidfetchAll:mp4-720"]);
    // nothing is offered while still offline
    await expect(page.getByRole("button", { name: "Process Downloads" })).toHaveCount(0);

    await context.setOffline(false);
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: /^You're back online/ })).toBeVisible();
    await expect(page.getByTestId("restored-banner")).toBeVisible();

    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "Process Downloads" }).click();
    const download = await downloadPromise;
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    const probe = ffprobe(file);
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Download queue processed" })).toContainText("1 of 1 download completed.");
    await expect(page.getByTestId("queue-entry")).toHaveCount(0);
    expect(await page.evaluate(() => (JSON.parse(localStorage.getItem("settings") ?? "{}") as { downloadQueue?: string[] }).downloadQueue)).toEqual([]);

    await page.getByRole("button", { name: "Dismiss connection restored message" }).click();
    await expect(page.getByTestId("restored-banner")).toHaveCount(0);
  });

  test("Cancel empties the queue", async ({ page, context }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    await context.setOffline(true);
    await page.getByRole("tab", { name: "Audio Only" }).click();
    await formatRow(page, "mp3-128").getByRole("button", { name: /MP3 128 Standard/ }).click();
    await expect(page.getByTestId("queue-entry")).toHaveCount(1);
    await context.setOffline(false);
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Download queue cleared" })).toBeVisible();
    await expect(page.getByTestId("queue-entry")).toHaveCount(0);
  });

  test("offline mode queues while connected; auto-process starts the queue on reconnect", async ({ page, context }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    await page.getByRole("switch", { name: "Offline mode" }).check();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Offline mode enabled" })).toBeVisible();
    await formatRow(page, "mp4-360").getByRole("button", { name: /MP4 360p SD/ }).click();
    await expect(page.getByTestId("queue-entry")).toHaveCount(1);
    await page.getByRole("switch", { name: "Offline mode" }).uncheck();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Offline mode disabled" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Process Downloads" })).toBeVisible();

    await page.getByRole("switch", { name: "Process the queue automatically" }).check();
    await context.setOffline(true);
    await expect(page.getByRole("alert").filter({ hasText: "You're Offline" }).first()).toBeVisible();
    const downloadPromise = page.waitForEvent("download");
    await context.setOffline(false);
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe("Sample clip in every quality (360p).mp4");
    await expect(page.getByTestId("queue-entry")).toHaveCount(0);
  });

  test("the queue survives a reload", async ({ page, context }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    await context.setOffline(true);
    await formatRow(page, "mp4-480").getByRole("button", { name: /MP4 480p SD/ }).click();
    await expect(page.getByTestId("queue-entry")).toHaveCount(1);
    await context.setOffline(false);
    await page.reload();
    await expect(page.getByTestId("queue-entry")).toHaveCount(1);
    await expect(page.getByTestId("queue-entry")).toContainText("vidfetchAll");
    // the format keeps its label, not the raw id
    await expect(page.getByTestId("queue-entry")).toContainText("MP4 480p SD");
    await expect(page.getByTestId("queue-entry")).not.toContainText("MP4-480");
  });
});
