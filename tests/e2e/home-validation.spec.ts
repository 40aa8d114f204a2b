import { expect, test } from "@playwright/test";
import { SAMPLE, formatRow, lookUp, urlField } from "./home-helpers.ts";

const SERVER_ERROR = { error: { code: "download.failed", message: "Our servers are experiencing an issue. Please try again later." } };

test.describe("home: the link form", () => {
  test("live validation, empty submit, clear button", async ({ page }) => {
    await page.goto("/");
    const field = urlField(page);
    const submit = page.getByRole("button", { name: "Download", exact: true });

    await submit.click();
    await expect(page.getByText("Please enter a YouTube URL", { exact: true })).toBeVisible();

    await field.fill("not a link");
    await expect(page.getByText("Please enter a valid video link")).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(submit).toBeDisabled();

    await field.fill("youtube.com/watch?v=short");
    await expect(page.getByText("Please enter a valid YouTube URL")).toBeVisible();

    await field.fill("https://www.facebook.com/SomePage");
    await expect(page.getByText("Please enter a valid Facebook video link")).toBeVisible();

    await field.fill("youtu.be/vidfetchAll");
    await expect(page.getByText("Please enter a valid YouTube URL")).toBeHidden();
    await expect(submit).toBeEnabled();

    await page.getByRole("button", { name: "Clear URL" }).click();
    await expect(field).toHaveValue("");
    await expect(field).toBeFocused();
  });

  test("Processing... with the field disabled while the link resolves", async ({ page }) => {
    await page.goto("/");
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/v1/resolve", async (route) => {
      await held;
      await route.continue();
    });
    await urlField(page).fill(SAMPLE.all);
    await page.getByRole("button", { name: "Download", exact: true }).click();
    await expect(page.getByRole("button", { name: "Processing..." })).toBeDisabled();
    await expect(urlField(page)).toBeDisabled();
    release();
    await expect(page.getByTestId("video-title")).toHaveText(SAMPLE.title);
    await expect(urlField(page)).toBeEnabled();
  });

  test("a refused link clears the preview and shows the engine's message in an Error toast", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    await urlField(page).fill(SAMPLE.private);
    await page.getByRole("button", { name: "Download", exact: true }).click();
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Error" });
    await expect(toast).toContainText("This video is private.");
    await expect(page.getByTestId("preview-card")).toHaveCount(0);
    // the reason stays on the page after the toast has gone, until the next link
    const card = page.getByTestId("lookup-error");
    await expect(card.getByRole("alert")).toContainText("This video is private.");
    await expect(toast).toHaveCount(0, { timeout: 15_000 });
    await expect(card).toContainText("This video is private.");
    await lookUp(page, SAMPLE.all);
    await expect(page.getByTestId("lookup-error")).toHaveCount(0);
  });

  test("a failure without a message falls back to the spec's sentence", async ({ page }) => {
    await page.route("**/api/v1/resolve", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "" }));
    await page.goto("/");
    await urlField(page).fill(SAMPLE.all);
    await page.getByRole("button", { name: "Download", exact: true }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Error" })).toContainText(/An unexpected error occurred|Could not process this video URL/);
  });
});

test.describe("home: the format button retries", () => {
  test("fails twice, shows (2/3), then succeeds and saves the file", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    let calls = 0;
    await page.route("**/api/v1/downloads", async (route) => {
      calls += 1;
      if (calls <= 2) return route.fulfill({ status: 500, json: SERVER_ERROR });
      return route.continue();
    });
    const button = formatRow(page, "mp4-360").getByRole("button", { name: /MP4 360p SD/ });
    const downloadPromise = page.waitForEvent("download");
    await button.click();
    await expect(button).toContainText("(2/3)");
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe("Sample clip in every quality (360p).mp4");
    await expect(button).toHaveAttribute("data-state", "success");
    await expect(button).toContainText("Done");
    expect(calls).toBe(3);
  });

  test("always failing: three attempts, the final message, then the button resets", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    let calls = 0;
    await page.route("**/api/v1/downloads", (route) => {
      calls += 1;
      return route.fulfill({ status: 500, json: SERVER_ERROR });
    });
    const row = formatRow(page, "mp4-480");
    const button = row.getByRole("button", { name: /MP4 480p SD/ });
    await button.click();
    // each retry waits 1.5 s, so "(2/3)" is on screen long enough to see; the third try fails at once
    await expect(button).toContainText("(2/3)");
    await expect(row.getByTestId("format-error")).toHaveText("Download failed after 3 attempts. Our servers are experiencing an issue. Please try again later.");
    await expect(button).toHaveAttribute("data-state", "error");
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Download Failed" })).toBeVisible();
    await expect(button).toHaveAttribute("data-state", "idle", { timeout: 6000 });
    await expect(row.getByTestId("format-error")).toBeVisible();
    expect(calls).toBe(3);
  });

  test("a refusal that cannot change is not retried", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    let calls = 0;
    await page.route("**/api/v1/downloads", (route) => {
      calls += 1;
      return route.fulfill({ status: 422, json: { error: { code: "format.unavailable", message: "This format is not available for this video." } } });
    });
    const row = formatRow(page, "webm");
    await row.getByRole("button", { name: /WEBM Original/ }).click();
    await expect(row.getByTestId("format-error")).toHaveText("This format is not available for this video.");
    expect(calls).toBe(1);
  });

  test("thumbnail and transcript failures use the spec's toasts", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    // the sample has no captions: the option explains itself with the spec's wording
    await page.getByRole("tab", { name: "Other" }).click();
    // aria-disabled keeps it focusable and clickable for the explanation; Playwright needs force for that
    await formatRow(page, "transcript").getByRole("button", { name: /Unavailable/ }).click({ force: true });
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Not Available" })).toContainText("Transcript is not available for this video");

    await page.route("**/api/v1/downloads", (route) => route.fulfill({ status: 404, json: { error: { code: "thumbnail.unavailable", message: "Thumbnail not available" } } }));
    await formatRow(page, "thumbnail-hd").getByRole("button", { name: /Thumbnail HD JPG/ }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Thumbnail not available" })).toBeVisible();
  });
});

test.describe("home before its scripts arrive", () => {
  test.use({ javaScriptEnabled: false });

  test("the offline panel's place says what it is, not an empty grey box", async ({ page }) => {
    await page.goto("/");
    const placeholder = page.getByTestId("offline-panel-placeholder");
    await expect(placeholder).toContainText("Offline downloads");
    await expect(placeholder).toContainText("wait here and start once you're back online");
  });
});

test("a link pasted before the page's script has run is kept and downloads", async ({ page }) => {
  // the scripts arrive late, as on a slow phone: the visitor has pasted by then
  await page.route("**/assets/*.js", async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  await urlField(page).fill(SAMPLE.all);
  // hydrated: the offline panel's code has replaced its placeholder's outline
  await page.waitForFunction(() => "__reactRouterContext" in window && document.querySelector('[role="switch"]') !== null, undefined, { timeout: 30_000 });
  await page.getByRole("button", { name: "Download", exact: true }).click();
  await expect(page.getByTestId("video-title")).toHaveText(SAMPLE.title);
});
