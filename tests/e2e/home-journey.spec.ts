import { readFileSync, statSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { SAMPLE, downloadFormat, ffprobe, formatRow, lookUp, urlField } from "./home-helpers.ts";

test.describe("home: from a pasted link to a saved file", () => {
  test("MP4 720p, MP3 and the thumbnail are saved by the browser and are valid files", async ({ page }, testInfo) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await lookUp(page, SAMPLE.all);

    // the details (spec §3)
    const card = page.getByTestId("preview-card");
    await expect(card).toContainText("VidFetch Samples");
    await expect(card).toContainText("48.2K subscribers");
    await expect(card).toContainText("Jun 3, 2026");
    await expect(card).toContainText("0:06");
    await expect(card).toContainText("1.2M views");
    await expect(card).toContainText("45.7K");
    await expect(card).toContainText("#test pattern");
    await expect(card).toContainText("Monetized channel");
    // the 1 s placeholder gives way to the embed: with MOCKS the mock platform's own player page,
    // which plays the sample offline as the no-cookie embed would online
    const player = card.locator('iframe[src*="/embed/vidfetchAll?"]');
    await expect(player).toBeAttached({ timeout: 5000 });
    const preview = card.frameLocator('iframe[src*="/embed/vidfetchAll?"]').locator("video");
    await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);

    // real sizes from the engine, tabs Video / Audio Only / Other
    await expect(page.getByRole("tab")).toHaveText(["Video", "Audio Only", "Other"]);
    const api = (await (await page.request.post("/api/v1/resolve", { data: { url: SAMPLE.all } })).json()) as { formats: { id: string; size: string; bytes: number }[] };
    const engine720 = api.formats.find((f) => f.id === "mp4-720")!;
    expect(engine720.bytes).toBeGreaterThan(0);
    await expect(formatRow(page, "mp4-720").getByTestId("format-size")).toHaveText(engine720.size);

    // MP4 720p
    const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
    expect(mp4.download.suggestedFilename()).toBe("Sample clip in every quality (720p).mp4");
    const v = ffprobe(mp4.file);
    const video = v.streams.find((s) => s.codec_type === "video");
    expect(video).toMatchObject({ codec_name: "h264", width: 1280, height: 720 });
    expect(v.streams.some((s) => s.codec_type === "audio")).toBe(true);
    expect(Math.abs(Number(v.format.duration) - SAMPLE.durationSeconds)).toBeLessThan(1);
    const button720 = formatRow(page, "mp4-720").getByRole("button", { name: /MP4 720p HD/ });
    await expect(button720).toHaveAttribute("data-state", "success");
    await expect(page.getByTestId("download-progress-text")).toContainText("100%");
    // the success state lasts 3 s, then the button is ready again
    await expect(button720).toHaveAttribute("data-state", "idle", { timeout: 6000 });

    // MP3
    const mp3 = await downloadFormat(page, testInfo, "Audio Only", "mp3-128");
    const a = ffprobe(mp3.file);
    expect(a.streams.map((s) => s.codec_name)).toContain("mp3");
    // no video track: the thumbnail rides along as cover art, an attached picture (issue 33 §3)
    expect(a.streams.some((s) => s.codec_type === "video" && s.disposition?.attached_pic !== 1)).toBe(false);
    expect(a.streams.some((s) => s.disposition?.attached_pic === 1)).toBe(true);
    expect(Math.abs(Number(a.format.duration) - SAMPLE.durationSeconds)).toBeLessThan(1);

    // HD thumbnail
    const thumb = await downloadFormat(page, testInfo, "Other", "thumbnail-hd");
    expect(thumb.download.suggestedFilename()).toBe("youtube-thumbnail-vidfetchAll.jpg");
    expect([...readFileSync(thumb.file).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(statSync(thumb.file).size).toBeGreaterThan(1000);
    expect(ffprobe(thumb.file).streams[0]).toMatchObject({ codec_name: "mjpeg", width: 1280, height: 720 });
  });

  test("a download in progress disables the other buttons and reports progress to screen readers", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    // hold the signed link back so the downloading state can be observed
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/v1/downloads", async (route) => {
      await held;
      await route.continue();
    });
    const row = formatRow(page, "mp4-1080");
    await row.getByRole("button", { name: /Download/ }).click();
    await expect(row.getByRole("button", { name: /MP4 1080p Full HD/ })).toContainText("Downloading...");
    await expect(formatRow(page, "mp4-720").getByRole("button", { name: /MP4 720p HD/ })).toBeDisabled();
    await expect(page.getByRole("status").filter({ hasText: "Downloading MP4 1080p Full HD" })).toBeAttached();
    const downloadPromise = page.waitForEvent("download");
    release();
    await downloadPromise;
    await expect(row.getByRole("button", { name: /MP4 1080p Full HD/ })).toHaveAttribute("data-state", "success");
    await expect(formatRow(page, "mp4-720").getByRole("button", { name: /MP4 720p HD/ })).toBeEnabled();
  });

  test("each format button is announced with its format, not just Download", async ({ page }) => {
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    await expect(page.getByRole("button", { name: "Download MP4 720p HD", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Download MP4 1080p Full HD", exact: true })).toBeVisible();
    // the link form's submit is the only button called just "Download"
    await expect(page.getByRole("button", { name: "Download", exact: true })).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Download", exact: true })).toHaveAttribute("type", "submit");

    // every option the engine lists, in its tab: download, unavailable or locked, named after the format
    const api = (await (await page.request.post("/api/v1/resolve", { data: { url: SAMPLE.all } })).json()) as {
      formats: { id: string; label: string; icon: string; available: boolean; premium: boolean }[];
    };
    const tabs = { video: "Video", audio: "Audio Only", image: "Other", text: "Other" } as const;
    expect(api.formats.length).toBeGreaterThanOrEqual(12);
    for (const f of api.formats) {
      await page.getByRole("tab", { name: tabs[f.icon as keyof typeof tabs] }).click();
      const row = formatRow(page, f.id);
      if (!f.available) await expect(row.getByRole("button", { name: `Unavailable ${f.label}`, exact: true })).toBeVisible();
      else if (f.premium) await expect(row.getByRole("link", { name: `Unlock ${f.label} with Premium`, exact: true })).toBeVisible();
      else await expect(row.getByRole("button", { name: `Download ${f.label}`, exact: true })).toBeVisible();
    }
    await page.getByRole("tab", { name: "Audio Only" }).click();
    await expect(page.getByRole("button", { name: "Download MP3 128 Standard", exact: true })).toBeVisible();
    await page.getByRole("tab", { name: "Other" }).click();
    await expect(page.getByRole("button", { name: "Download Thumbnail HD JPG", exact: true })).toBeVisible();
  });

  test("/?url= pre-fills the field and resolves at once", async ({ page }) => {
    await page.goto(`/?url=${encodeURIComponent(SAMPLE.upTo720)}`);
    await expect(urlField(page)).toHaveValue(SAMPLE.upTo720);
    await expect(page.getByTestId("video-title")).toHaveText("Sample clip up to 720p");
    // formats the video lacks are explained, not offered
    await expect(formatRow(page, "mp4-1080")).toContainText("Not available");
    await expect(formatRow(page, "mp4-1080").getByRole("button", { name: /Unavailable/ })).toBeVisible();
  });

  test("the example row fills the field with working links", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Watch link" }).click();
    await expect(urlField(page)).toHaveValue(SAMPLE.all);
    await page.getByRole("button", { name: "Download", exact: true }).click();
    await expect(page.getByTestId("video-title")).toHaveText(SAMPLE.title);
  });

  test("a generic HLS link: native player or poster, and a real MP4 from the stream", async ({ page }, testInfo) => {
    await page.goto("/");
    await page.getByRole("button", { name: "HLS stream" }).click();
    await page.getByRole("button", { name: "Download", exact: true }).click();
    await expect(page.getByTestId("video-title")).toHaveText("hls");
    const player = page.getByTestId("video-player");
    // browsers with native HLS get a <video>; the others a poster (no player library on the page).
    // Older Chromium has no native HLS: the poster says why. Newer Chromium plays HLS, but the mock
    // host is mapped on the server only, so the <video> fails and the poster says the preview could
    // not be loaded. Either way it says the download still works.
    const poster = player.getByText(/This browser cannot play HLS streams on its own|The preview could not be loaded from media\.example\.test/);
    await expect(player.locator("video").or(poster)).toBeVisible({ timeout: 5000 });
    if (await poster.isVisible()) await expect(poster).toContainText("The download below works");
    await expect(player.locator("iframe")).toHaveCount(0);
    const mp4 = await downloadFormat(page, testInfo, "Video", "mp4-720");
    const probe = ffprobe(mp4.file);
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(Math.abs(Number(probe.format.duration) - SAMPLE.durationSeconds)).toBeLessThan(1);
  });

  test("premium formats are locked for visitors and link to /premium", async ({ page }) => {
    await page.route("**/api/v1/resolve", async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { formats: { id: string; available: boolean; premium: boolean; note?: string }[] };
      // the sample has no 4K stream; pretend it does, as a real 4K video would
      for (const f of body.formats) if (f.id === "mp4-2160") Object.assign(f, { available: true, size: "~40 MB", note: "Premium feature" });
      await route.fulfill({ response: res, json: body });
    });
    await page.goto("/");
    await lookUp(page, SAMPLE.all);
    const row = formatRow(page, "mp4-2160");
    await expect(row).toContainText("Premium feature");
    await expect(row.getByRole("link", { name: /Unlock/ })).toHaveAttribute("href", "/premium");
  });

  test("the rest of the home page: steps, premium block, FAQ teaser", async ({ page }) => {
    // these sections hydrate from their own chunk (home-below-fold.tsx): the server's markup stays until it has
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/");
    await expect(page.getByRole("heading", { name: /Why choose/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "How to download a video" })).toBeVisible();
    await expect(page.locator("section[aria-labelledby=steps-heading] ol > li")).toHaveCount(4);
    await expect(page.getByRole("link", { name: "View all premium plans" })).toHaveAttribute("href", "/premium");
    await expect(page.locator("section[aria-labelledby=faq-teaser-heading] dt")).toHaveCount(3);
    await expect(page.getByRole("link", { name: "See all questions" })).toHaveAttribute("href", "/faq");

    // logged-out upgrade: the spec's toast, then /login, which comes back to the plans
    await page.getByRole("button", { name: "Upgrade to Premium" }).click();
    await expect(page.getByText("Login Required")).toBeVisible();
    await expect(page.getByText("Please log in or create an account to access premium features")).toBeVisible();
    await expect(page).toHaveURL(/\/login\?returnTo=%2Fpremium$/);
    // no hydration mismatch, no chunk that failed to load
    expect(errors).toEqual([]);
  });

  test("the sections below the downloader are in the server's page, readable without scripts", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { name: /Why choose/ })).toBeVisible();
    await expect(page.locator("section[aria-labelledby=steps-heading] ol > li")).toHaveCount(4);
    await expect(page.getByRole("heading", { name: "Get more with Premium" })).toBeVisible();
    await expect(page.locator("section[aria-labelledby=faq-teaser-heading] dt")).toHaveCount(3);
    await context.close();
  });

  test("the preview appears without moving the page", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
          if (!e.hadRecentInput) (window as unknown as { __cls: number }).__cls += e.value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await lookUp(page, SAMPLE.all);
    await expect(page.getByTestId("video-player").locator("iframe")).toBeAttached({ timeout: 5000 });
    await page.waitForTimeout(300);
    const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
    expect(cls).toBeLessThan(0.1);
  });

  test("axe finds no serious or critical violations, before and after a lookup", async ({ page }) => {
    // axe reads colours as painted: measure the page at rest, not mid-fade
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    const serious = async () => {
      await page.waitForFunction(() =>
        document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
      );
      const r = await new AxeBuilder({ page }).exclude("iframe").analyze();
      return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    };
    expect(await serious()).toEqual([]);
    await lookUp(page, SAMPLE.all);
    await expect(page.getByTestId("video-player").locator("iframe")).toBeAttached({ timeout: 5000 });
    expect(await serious()).toEqual([]);
  });
});
