/**
 * The installable, offline site (issue 10 §2–3) in the system Chromium with the real service
 * worker of this build: pages and tools after one visit with no connection, the offline page for
 * the rest, the queue's kept previews, a new build taking over, and the manifest's installability.
 */
import { execFile } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { chromium, expect, test, type Page } from "@playwright/test";
import { CHROMIUM_ARGS } from "../../playwright.config.ts";
import { SAMPLE, ffprobe, formatRow, lookUp } from "./home-helpers.ts";

test.use({ serviceWorkers: "allow" });

const ARTICLE = "/blog/how-to-download-youtube-videos-safely";
const ARTICLE_TITLE = /download YouTube videos safely/i;
const NOT_SAVED = "This page isn't saved for offline use";

/** Wait until this page is controlled by the site's worker (the first visit installs it). */
async function controlledByWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === "activated", null, { timeout: 30_000 });
}

test.describe("offline and installable", () => {
  let dir = "";
  test.beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "vidfetch-offline-"));
    await promisify(execFile)("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=320x240:rate=25:duration=2",
      "-c:v",
      "libx264",
      "-pix_fmt",
      "yuv420p",
      path.join(dir, "clip.mp4"),
    ]);
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("after one visit: pages and tools open offline, unvisited pages get the offline page", async ({ page, context }) => {
    test.setTimeout(120_000);
    await page.goto("/");
    await controlledByWorker(page);
    await page.goto("/tools/text");
    await page.goto(ARTICLE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(ARTICLE_TITLE);

    await context.setOffline(true);

    // visited pages reload from the worker's copies, with the offline notice
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "You're Offline" }).first()).toBeVisible();
    await page.goto(ARTICLE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(ARTICLE_TITLE);
    await expect(page.getByRole("alert").filter({ hasText: "You're Offline" }).first()).toBeVisible();

    // the text tool still works
    await page.goto("/tools/text");
    await page.getByLabel("Text", { exact: true }).fill("Offline words count too.");
    await expect(page.getByTestId("count-Words")).toHaveText("4");
    await page.getByRole("button", { name: "kebab-case" }).click();
    await expect(page.getByLabel("Result", { exact: true })).toHaveValue("offline-words-count-too");

    // a tool never visited opens too (precached at install), and its worker code runs
    await page.goto("/tools/media");
    await page.getByLabel("Video or audio file").setInputFiles(path.join(dir, "clip.mp4"));
    await expect(page.getByTestId("media-info-video").getByRole("row", { name: /^Resolution/ })).toContainText("320 × 240");
    // so do the converter (an animated WebP, made and offered for saving) and the colour picker
    await page.goto("/tools/converters");
    await page.getByLabel("Video or audio file").setInputFiles(path.join(dir, "clip.mp4"));
    await expect(page.getByText("Duration: 0:02.0")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("webp");
    await page.getByLabel("Width").selectOption("240");
    await page.getByRole("button", { name: "Convert", exact: true }).click();
    await expect(page.getByRole("link", { name: /^Save clip\.webp/ })).toBeVisible({ timeout: 45_000 });
    await page.goto("/tools/colors");
    await page.getByLabel("Any CSS colour").fill("tomato");
    await page.getByRole("button", { name: "Use", exact: true }).click();
    await expect(page.getByTestId("color-rgb")).toHaveText("rgb(255 99 71)");

    // a page never visited: the offline page, not the browser's error
    await page.goto("/faq");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(NOT_SAVED);
    await expect(page.getByRole("link", { name: "Text Tools" })).toHaveAttribute("href", "/tools/text");

    // reached by a link inside the app (a client-side navigation) it says the same
    await page.goto("/");
    await page.locator('footer a[href="/dmca"]').first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(NOT_SAVED);

    await context.setOffline(false);
    await page.goto("/faq");
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(NOT_SAVED);
  });

  test("downloads, API answers and signed links never pass through the worker", async ({ page }) => {
    await page.goto("/");
    await controlledByWorker(page);
    const fromWorker: string[] = [];
    page.on("response", (r) => {
      if (new URL(r.url()).pathname.startsWith("/api/") && r.fromServiceWorker()) fromWorker.push(r.url());
    });
    await lookUp(page, SAMPLE.all);
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("tab", { name: "Audio Only" }).click();
    await formatRow(page, "mp3-128")
      .getByRole("button", { name: /MP3 128 Standard/ })
      .click();
    await (await downloadPromise).path();
    expect(fromWorker).toEqual([]);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(req.url);
      return urls;
    });
    expect(cached.filter((u) => new URL(u).pathname.startsWith("/api/"))).toEqual([]);
    expect(cached.some((u) => new URL(u).pathname === "/tools/text")).toBe(true);
  });

  test("a video queued offline keeps its title and thumbnail, and the queue processes back online", async ({ page, context }, testInfo) => {
    test.setTimeout(120_000);
    await page.goto("/");
    await controlledByWorker(page);
    await lookUp(page, SAMPLE.all);
    // the preview is an embed: the page fetched the thumbnail itself, through the worker, for later
    await expect.poll(() => page.evaluate(async () => (await (await caches.open("vidfetch-thumbnails")).keys()).length)).toBeGreaterThan(0);

    await context.setOffline(true);
    const kept = page.evaluate(
      () =>
        new Promise<unknown>((resolve) => {
          navigator.serviceWorker.addEventListener("message", (e) => resolve(e.data), { once: true });
        }),
    );
    await formatRow(page, "mp4-720")
      .getByRole("button", { name: /MP4 720p HD/ })
      .click();
    expect(await kept).toEqual({
      type: "CACHED_FOR_OFFLINE_DONE",
      videoId: "vidfetchAll",
      thumbnail: true,
    });
    const entry = page.getByTestId("queue-entry");
    await expect(entry).toContainText(SAMPLE.title);

    // reloaded with no connection, the queue still shows the video's title and its thumbnail
    await page.reload();
    await expect(entry).toContainText(SAMPLE.title);
    const thumbnail = entry.getByTestId("queue-thumbnail");
    await expect(thumbnail).toBeVisible();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    await context.setOffline(false);
    await expect(page.getByRole("button", { name: "Process Downloads" })).toBeVisible();
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "Process Downloads" }).click();
    const download = await downloadPromise;
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    expect(ffprobe(file).streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    await expect(page.getByTestId("queue-entry")).toHaveCount(0);
    // the preview leaves with the item
    await expect.poll(() => page.evaluate(async () => (await caches.open("vidfetch-offline-previews")).keys().then((k) => k.length))).toBe(0);
  });

  test("a new build: an update toast, and Reload moves the page onto it", async ({ page }) => {
    await page.goto("/tools/colors");
    await controlledByWorker(page);
    const workerFile = path.resolve(process.env.BUILD_DIR ?? "build", "client", "service-worker.js");
    const original = readFileSync(workerFile);
    try {
      // what a deploy does: the same URL answers with a different worker
      appendFileSync(workerFile, `\n// next build ${Date.now()}\n`);
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
      const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Update available" });
      await expect(toast).toBeVisible({ timeout: 30_000 });
      const reloaded = page.waitForEvent("load");
      await toast.getByRole("button", { name: "Reload" }).click();
      await reloaded;
      await controlledByWorker(page);
      const state = await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return { waiting: Boolean(reg?.waiting), active: reg?.active?.state };
      });
      expect(state).toEqual({ waiting: false, active: "activated" });
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Update available" })).toHaveCount(0);
    } finally {
      writeFileSync(workerFile, original);
    }
  });

  test("the manifest and the worker pass Chromium's installability checks", async ({ baseURL }) => {
    test.setTimeout(120_000);
    // a real profile: Chromium never offers to install from an incognito-like context
    const profile = mkdtempSync(path.join(tmpdir(), "vidfetch-profile-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
      baseURL,
      serviceWorkers: "allow",
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await installabilityChecks(page);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

async function installabilityChecks(page: Page): Promise<void> {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto("/");
  await controlledByWorker(page);
  const cdp = await page.context().newCDPSession(page);
  const manifest = (await cdp.send("Page.getAppManifest")) as {
    errors: { message: string }[];
    data?: string;
  };
  expect(manifest.errors).toEqual([]);
  const parsed = JSON.parse(manifest.data ?? "{}") as {
    icons: { sizes: string; purpose?: string }[];
    share_target?: { action: string; params: { url: string } };
  };
  expect(parsed.icons.map((i) => `${i.sizes} ${i.purpose ?? "any"}`)).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));
  expect(parsed.share_target).toMatchObject({
    action: "/",
    params: { url: "url" },
  });
  const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
  expect(installabilityErrors).toEqual([]);
  for (const icon of ["/icons/icon-192.png", "/icons/icon-512.png", "/icons/icon-maskable-512.png"]) {
    const res = await page.request.get(icon);
    expect(res.headers()["content-type"]).toBe("image/png");
  }
  const worker = await page.request.get("/service-worker.js");
  expect(worker.headers()["cache-control"]).toBe("no-cache");
  expect(errors).toEqual([]);

  // the share target still fills the form
  await page.goto(`/?url=${encodeURIComponent(SAMPLE.all)}`);
  await expect(page.getByTestId("video-title")).toHaveText(SAMPLE.title, { timeout: 30_000 });
}
