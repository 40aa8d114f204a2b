import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { downloadFormat, formatRow, lookUp } from "./home-helpers.ts";
import { signUp, subscribe } from "./support/plans.ts";

/**
 * Issue 31 §3 in the browser (MOCKS=true, the fake Stripe): a Pro user chooses the subtitles'
 * language on the home page, one of the video's tracks or a machine translation, and the saved
 * file is in it and named by it; a visitor sees the choice is a Pro and Ultimate one and still
 * gets the free transcript.
 */

const SUBTITLED = "https://www.youtube.com/watch?v=vidfetchSub";
const TITLE = "Sample clip with subtitles in three languages";

/** axe's serious and critical findings on the page as it is (the embedded player left out). */
async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).exclude("iframe").analyze();
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function openSubtitles(page: Page) {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  await page.waitForFunction(() => "__reactRouterContext" in window);
  await lookUp(page, SUBTITLED, TITLE);
  await page.getByRole("tab", { name: "Other" }).click();
  return page.getByRole("combobox", { name: "Subtitle language" });
}

test("a Pro user downloads German subtitles as SRT and a French translation as VTT, and a queued German SRT stays German", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signUp(page, "Grace Hopper", "subtitles");
  await subscribe(page, "Pro");
  await page.setViewportSize({ width: 375, height: 812 });

  const select = await openSubtitles(page);
  await expect(select).toBeEnabled();
  await expect(select).toHaveValue("");
  await expect(select.locator("option:checked")).toHaveText("Best available (English first)");
  await expect(select.locator('optgroup[label="Subtitles of this video"] option')).toHaveText(["English", "German", "Spanish"]);
  await expect(select.locator('optgroup[label="Auto-translated"] option')).toHaveText(["French (auto-translated)", "Japanese (auto-translated)"]);
  await expect(page.getByText("Choosing a language comes with the Pro and Ultimate plans.")).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // by keyboard: focus the select and choose German
  await select.focus();
  await select.selectOption({ label: "German" });
  const srt = await downloadFormat(page, testInfo, "Other", "srt");
  expect(srt.download.suggestedFilename()).toMatch(/\.de\.srt$/);
  const srtText = readFileSync(srt.file, "utf8");
  expect(srtText).toContain("Die Bedingungen, unter denen dieser Vortrag genutzt werden darf");
  expect(srtText).toMatch(/\d\d:\d\d:\d\d,\d{3} --> /);

  await select.selectOption({ label: "French (auto-translated)" });
  const vtt = await downloadFormat(page, testInfo, "Other", "vtt");
  expect(vtt.download.suggestedFilename()).toMatch(/\.fr\.vtt$/);
  const vttText = readFileSync(vtt.file, "utf8");
  expect(vttText.replace(/^\uFEFF/, "")).toMatch(/^WEBVTT/);
  expect(vttText).toContain("[fr] ");
  expect(vttText).not.toContain("Die Bedingungen");
  expect(await seriousViolations(page)).toEqual([]);

  // queued in offline mode, a German SRT stays German
  await select.selectOption({ label: "German" });
  await page.getByRole("switch", { name: "Offline mode" }).check();
  await formatRow(page, "srt").getByRole("button", { name: /SRT/ }).click();
  await expect(page.getByTestId("queue-entry")).toHaveCount(1);
  await expect(page.getByTestId("queue-entry")).toContainText("(German)");
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("settings") ?? "{}") as { downloadQueue?: string[] });
  expect(stored.downloadQueue).toEqual(["vidfetchSub:srt@de"]);
  await page.getByRole("switch", { name: "Offline mode" }).uncheck();
  const queued = page.waitForEvent("download");
  await page.getByRole("button", { name: "Process Downloads" }).click();
  const download = await queued;
  expect(download.suggestedFilename()).toMatch(/\.de\.srt$/);
  const queuedFile = testInfo.outputPath(`queued-${download.suggestedFilename()}`);
  await download.saveAs(queuedFile);
  expect(readFileSync(queuedFile, "utf8")).toContain("Die Bedingungen, unter denen dieser Vortrag genutzt werden darf");
});

test("a visitor sees the language choice is a Pro and Ultimate one and still downloads the English transcript", async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const select = await openSubtitles(page);
  await expect(select).toBeDisabled();
  await expect(select).toHaveValue("");
  const note = page.getByTestId("subtitle-language");
  await expect(note).toContainText("Choosing a language comes with the Pro and Ultimate plans.");
  await expect(note.getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/premium");
  expect(await seriousViolations(page)).toEqual([]);

  const txt = await downloadFormat(page, testInfo, "Other", "transcript");
  expect(txt.download.suggestedFilename()).toMatch(/\.txt$/);
  expect(txt.download.suggestedFilename()).not.toMatch(/-transcript-[a-z]{2}\.txt$/);
  expect(readFileSync(txt.file, "utf8")).toContain("The terms on which this lecture may be used");
});
