import { expect, test } from "@playwright/test";
import { MOCK_GENERIC_HOST, SLOW_FILE_PATH } from "../mocks/platform.ts";
import { formatRow, urlField } from "./home-helpers.ts";

/**
 * The progress bar of a download that takes a while (the mock host sends the file over six
 * seconds) moves while it runs, in the row of the format the visitor pressed. A compressed event
 * stream reached the browser only at the end: the bar sat at 0% and jumped to 100%.
 */
const SLOW_LINK = `https://${MOCK_GENERIC_HOST}${SLOW_FILE_PATH}`;

test("a slow download's bar moves through the percentages, next to the pressed format", async ({ page }) => {
  await page.goto("/");
  await urlField(page).fill(SLOW_LINK);
  await page.getByRole("button", { name: "Download", exact: true }).click();
  const row = formatRow(page, "mp4-360");
  const button = row.getByRole("button", { name: /Download/ });
  await expect(button).toBeVisible({ timeout: 20_000 });

  const downloadPromise = page.waitForEvent("download");
  await button.click();
  const download = await downloadPromise;

  // what the bar said, read as the download runs
  const seen = new Set<number>();
  const text = row.getByTestId("download-progress-text");
  const state = () => row.locator("button[data-state]").getAttribute("data-state");
  for (const until = Date.now() + 30_000; Date.now() < until && !["success", "error"].includes((await state()) ?? ""); ) {
    const m = /^(\d+)%/.exec((await text.textContent({ timeout: 1000 }).catch(() => null)) ?? "");
    if (m) seen.add(Number(m[1]));
    await page.waitForTimeout(100);
  }
  expect(await state()).toBe("success");
  expect(await download.failure()).toBeNull();
  const between = [...seen].filter((p) => p > 0 && p < 100);
  expect(between.length, `percentages seen while downloading: ${[...seen].join(", ")}`).toBeGreaterThanOrEqual(3);

  // the bar is in the pressed row, and only there
  await expect(row.getByTestId("download-progress")).toBeVisible();
  await expect(page.getByTestId("download-progress")).toHaveCount(1);
  await expect(text).toContainText("100%");
});
