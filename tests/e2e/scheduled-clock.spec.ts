import { expect, test } from "@playwright/test";
import { SAMPLE, ffprobe } from "./home-helpers.ts";
import { queryE2eDatabase, requireE2eDatabase } from "./support/db.ts";
import { signUp, subscribe } from "./support/plans.ts";

/**
 * Issue 30 §5: a Pro user in Tokyo schedules a download for tomorrow 09:00 their time; it is
 * stored as 00:00 UTC, waits, and runs only when its time comes. The hours are not waited for:
 * the server's clock cannot be moved from outside, so the test does to the job what those hours
 * would do, moving its due time (the queue's row and ours) to now. Needs the PostgreSQL the CI
 * gives the e2e server (the embedded PGlite cannot be opened by a second process).
 */
test.use({ timezoneId: "Asia/Tokyo", locale: "en-US" });

test("a download scheduled for tomorrow 09:00 in the visitor's zone waits for its time, then runs and is downloaded from the dashboard", async ({ page }, testInfo) => {
  requireE2eDatabase();
  test.setTimeout(150_000);
  await signUp(page, "Katherine Johnson", "clock");
  await subscribe(page, "Pro");
  await page.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab", { name: "Scheduled" }).click();

  // tomorrow's date in Tokyo, as the visitor's own calendar shows it
  const tomorrow = await page.evaluate(() => {
    const d = new Date(Date.now() + 24 * 3600_000);
    return d.toLocaleDateString("en-CA", { timeZone: "Asia/Tokyo" });
  });
  await page.getByLabel("Video URL").fill(SAMPLE.all);
  await page.getByLabel("Format").selectOption("mp3-128");
  await page.getByLabel(/^Date and time/).fill(`${tomorrow}T09:00`);
  await page.getByRole("button", { name: "Schedule download" }).click();

  const row = page.getByTestId("job-row").first();
  await expect(row).toContainText("Scheduled");
  // shown in the visitor's zone, stored in UTC (Tokyo is UTC+9 all year)
  await expect(row.locator("time").first()).toContainText("9:00 AM");
  const [job] = await queryE2eDatabase<{ id: string; run_at: Date; status: string }>(
    "SELECT d.id, d.run_at, d.status FROM download_jobs d JOIN users u ON u.id = d.user_id WHERE u.name = $1 ORDER BY d.created_at DESC LIMIT 1",
    ["Katherine Johnson"],
  );
  expect(job!.run_at.toISOString()).toBe(`${tomorrow}T00:00:00.000Z`);

  // the queue polls every 2 seconds: a few polls later it has still not run
  await page.waitForTimeout(5000);
  const [waiting] = await queryE2eDatabase<{ status: string; started_at: Date | null }>("SELECT status, started_at FROM download_jobs WHERE id = $1", [job!.id]);
  expect(waiting).toEqual({ status: "scheduled", started_at: null });
  await page.reload();
  await expect(page.getByTestId("job-row").first()).toContainText("Scheduled");

  // tomorrow 09:00 comes: the job's due time is now, in the queue and on its row
  const moved = await queryE2eDatabase<{ id: string }>("UPDATE pgboss.job SET start_after = now() WHERE name = 'scheduled-download' AND state = 'created' AND data->>'jobId' = $1 RETURNING id", [job!.id]);
  expect(moved).toHaveLength(1);
  await queryE2eDatabase("UPDATE download_jobs SET run_at = now() WHERE id = $1", [job!.id]);

  // the visitor comes back to the dashboard: the job runs and the list follows it to the end
  await page.reload();
  const ready = page.getByTestId("job-row").first();
  await expect(ready).toContainText("Ready", { timeout: 90_000 });
  const link = ready.getByRole("link", { name: /^Download / });
  const downloadPromise = page.waitForEvent("download");
  await link.click();
  const download = await downloadPromise;
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  expect(download.suggestedFilename()).toMatch(/\.mp3$/);
  const probe = ffprobe(file);
  expect(probe.format.format_name).toBe("mp3");
  expect(probe.streams.find((s) => s.codec_type === "audio")).toMatchObject({ codec_name: "mp3" });

  // it ran once, after its (moved) time
  const [done] = await queryE2eDatabase<{ status: string; started_at: Date; run_at: Date }>("SELECT status, started_at, run_at FROM download_jobs WHERE id = $1", [job!.id]);
  expect(done!.status).toBe("done");
  expect(done!.started_at.getTime()).toBeGreaterThanOrEqual(done!.run_at.getTime());
});
