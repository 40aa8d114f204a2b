/**
 * The four tools pages doing real work in Chromium on files made with ffmpeg here, the outputs
 * checked with ffprobe (codec, duration ±0.2 s, dimensions) or as exact strings, and the network
 * watched so no request ever carries the visitor's file.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { blackPng } from "../support/png.ts";

const run = promisify(execFile);
let dir = "";
const fixture = (name: string) => path.join(dir, name);

async function ffmpeg(args: string[]): Promise<void> {
  await run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);
}

interface Probe {
  format: { format_name: string; duration?: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; channels?: number; sample_rate?: string }[];
}

async function probe(file: string): Promise<Probe> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", file]);
  return JSON.parse(stdout) as Probe;
}

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "vidfetch-tools-"));
  // 4 s of H.264 + AAC at 640x360, 30 fps, a key frame every second, a title tag; moov at the end
  await ffmpeg([
    "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=4",
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
    "-ac", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
    "-c:a", "aac", "-b:a", "128k", "-metadata", "title=Tools Test Clip", "-shortest", fixture("clip.mp4"),
  ]);
  // 60 s at 1280x720, long enough to cancel mid-way
  await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=60", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", fixture("long.mp4")]);
  // 2 min of Opus audio: its WAV (23 MB) is written to disk in several pieces, and its header last
  await ffmpeg(["-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000:duration=120", "-ac", "2", "-c:a", "libopus", "-b:a", "32k", fixture("long-tone.webm")]);
  // 3 s of PCM audio
  await ffmpeg(["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=44100:duration=3", "-ac", "2", "-c:a", "pcm_s16le", fixture("tone.wav")]);
  // an image: left half #3366cc, right half #ff8000, from raw RGB bytes (ffmpeg's colour
  // sources go through YUV and would shift the values)
  const raw = Buffer.alloc(200 * 100 * 3);
  for (let i = 0; i < 200 * 100; i++) raw.set(i % 200 < 100 ? [0x33, 0x66, 0xcc] : [0xff, 0x80, 0x00], i * 3);
  writeFileSync(fixture("halves.rgb"), raw);
  await ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "200x100", "-i", fixture("halves.rgb"), "-frames:v", "1", fixture("halves.png")]);
  // damaged: the first half of the MP4 (its index, at the end, is missing); not media: text
  const clip = readFileSync(fixture("clip.mp4"));
  writeFileSync(fixture("damaged.mp4"), clip.subarray(0, Math.floor(clip.length / 2)));
  writeFileSync(fixture("notes.mp4"), "These are my notes, not a video.\n".repeat(200));
  // 5 GB: a real MP4 with its index first, then zeros to 5 GB (sparse: no disk space is used)
  await ffmpeg(["-i", fixture("clip.mp4"), "-c", "copy", "-movflags", "+faststart", fixture("clip-faststart.mp4")]);
  copyFileSync(fixture("clip-faststart.mp4"), fixture("huge.mp4"));
  truncateSync(fixture("huge.mp4"), 5 * 1024 ** 3);
  // an image file of 300 MB (sparse) and a small PNG of 20000 × 10000 pixels (200 megapixels)
  writeFileSync(fixture("heavy.png"), readFileSync(fixture("halves.png")));
  truncateSync(fixture("heavy.png"), 300_000_000);
  writeFileSync(fixture("giant.png"), blackPng(20_000, 10_000, 1));
  // H.265 video, which this Chromium may not be able to decode
  await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2", "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-pix_fmt", "yuv420p", fixture("hevc.mp4")]);
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Watches every request the page makes while a tool works. A tool only ever loads its own code
 * (GET), so any other method, any request with a body, any request that leaves the site and any
 * request carrying a slice of the given files counts as an upload. `check` fails the test on one.
 */
function watchForUploads(page: Page, files: string[]): { offenders: string[]; check: () => void } {
  const needles = files.map((f) => {
    const bytes = readFileSync(f);
    const mid = Math.floor(bytes.length / 2);
    return bytes.subarray(mid, mid + 64);
  });
  const offenders: string[] = [];
  page.on("request", (req) => {
    const what = `${req.method()} ${req.url()}`;
    const body = req.postDataBuffer();
    if (req.method() !== "GET" && req.method() !== "HEAD") offenders.push(`not a GET: ${what}`);
    if (body && body.length > 0) offenders.push(`${body.length}-byte body: ${what}`);
    if (body && needles.some((n) => body.includes(n))) offenders.push(`carried the file: ${what}`);
    if (!/^(https?:\/\/127\.0\.0\.1:\d+\/|blob:|data:)/.test(req.url())) offenders.push(`outside request: ${req.url()}`);
  });
  return { offenders, check: () => expect(offenders, "requests that could carry the file or left the site").toEqual([]) };
}

function watchErrors(page: Page): () => void {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return () => expect(errors).toEqual([]);
}

async function saveResult(page: Page, name: RegExp): Promise<{ file: string; suggested: string }> {
  const link = page.getByRole("link", { name });
  await expect(link).toBeVisible({ timeout: 45_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const file = path.join(dir, `out-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return { file, suggested: download.suggestedFilename() };
}

/**
 * Stands in for the browser's save dialog (which a test cannot click): `showSaveFilePicker`
 * answers with a file in the origin's private file system (OPFS), a real FileSystemFileHandle
 * the converter writes through `createWritable()` exactly as it would a file on disk; or, for
 * "dismiss", fails as a dialog closed without choosing does. Each call's suggested name is kept.
 */
async function stubSavePicker(page: Page, mode: "opfs" | "dismiss" | "absent"): Promise<void> {
  await page.addInitScript((how) => {
    const w = window as unknown as { showSaveFilePicker?: unknown; savePicks: string[] };
    w.savePicks = [];
    if (how === "absent") {
      delete (window as unknown as Record<string, unknown>).showSaveFilePicker;
      return;
    }
    w.showSaveFilePicker = async (options: { suggestedName: string }) => {
      w.savePicks.push(options.suggestedName);
      if (how === "dismiss") throw new DOMException("The user aborted a request.", "AbortError");
      const root = await navigator.storage.getDirectory();
      return root.getFileHandle(options.suggestedName, { create: true });
    };
  }, mode);
}

/** The names of the files in the page's private file system. */
async function opfsNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const names: string[] = [];
    const root = (await navigator.storage.getDirectory()) as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> };
    for await (const name of root.keys()) names.push(name);
    return names.sort();
  });
}

/** The size of a file in the page's private file system, or null if there is none. */
async function opfsSize(page: Page, name: string): Promise<number | null> {
  return page.evaluate(async (n) => {
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle(n).catch(() => null);
    return handle ? (await handle.getFile()).size : null;
  }, name);
}

/** Copies a file from the page's private file system to the test's folder, for ffprobe. */
async function readOpfs(page: Page, name: string): Promise<string> {
  const b64 = await page.evaluate(async (n) => {
    const file = await (await (await navigator.storage.getDirectory()).getFileHandle(n)).getFile();
    const url = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    return url.slice(url.indexOf(",") + 1);
  }, name);
  const out = path.join(dir, `opfs-${Date.now()}-${name}`);
  writeFileSync(out, Buffer.from(b64, "base64"));
  return out;
}

const duration = (p: Probe) => Number(p.format.duration);
const stream = (p: Probe, type: string) => p.streams.find((s) => s.codec_type === type);

test.describe("tools pages", () => {
  test("each page answers with its metadata, WebApplication JSON-LD and the privacy promise", async ({ page, request }) => {
    for (const [p, h1] of [
      ["/tools/converters", "Video Converters"],
      ["/tools/media", "Media Tools"],
      ["/tools/colors", "Color Picker"],
      ["/tools/text", "Text Tools"],
    ] as const) {
      const res = await page.goto(p);
      expect(res?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
      await expect(page.getByText("Your file never leaves your device")).toBeVisible();
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${p}$`));
      const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
      expect(ld.some((t) => t.includes('"WebApplication"') && t.includes(`"name":"${h1}"`))).toBe(true);
      // usable at 375 px: nothing wider than the screen
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    const xml = await (await request.get("/sitemap.xml")).text();
    for (const p of ["/tools/converters", "/tools/media", "/tools/colors", "/tools/text"]) expect(xml).toContain(`${p}</loc>`);
    await page.goto("/sitemap");
    await expect(page.getByRole("region", { name: "Tools" }).getByRole("link")).toHaveText(["Video Converters", "Color Picker", "Text Tools", "Media Tools"]);
  });

  test("each page has no serious accessibility violations, also with results on screen", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    const serious = async () =>
      (await new AxeBuilder({ page }).include("main").analyze()).violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 3) }));
    for (const p of ["/tools/converters", "/tools/colors", "/tools/text"]) {
      await page.goto(p);
      expect(await serious(), p).toEqual([]);
    }
    await page.goto("/tools/media");
    await page.getByLabel("Video or audio file").setInputFiles(fixture("clip.mp4"));
    await expect(page.getByTestId("media-info-video")).toContainText("640 × 360");
    expect(await serious(), "/tools/media with a file").toEqual([]);
  });

  test("text tools: counts, case, find and replace with a bad pattern, lines and safe file names", async ({ page }) => {
    const checkErrors = watchErrors(page);
    await page.goto("/tools/text");
    await page.getByLabel("Text", { exact: true }).fill("Hello world. How are you?\nFine, thanks!");
    const count = (name: string) => page.getByTestId(`count-${name}`);
    await expect(count("Characters")).toHaveText("39");
    await expect(count("Characters without spaces")).toHaveText("33");
    await expect(count("Words")).toHaveText("7");
    await expect(count("Lines")).toHaveText("2");
    await expect(count("Sentences")).toHaveText("3");
    await expect(count("Reading time")).toHaveText("3 sec");

    const result = page.getByLabel("Result", { exact: true });
    await page.getByRole("button", { name: "snake_case" }).click();
    await expect(result).toHaveValue("hello_world_how_are_you_fine_thanks");
    await page.getByRole("button", { name: "Title Case" }).click();
    await expect(result).toHaveValue("Hello World. How Are You?\nFine, Thanks!");
    await page.getByRole("button", { name: "Slugify" }).click();
    await expect(result).toHaveValue("hello-world-how-are-you-fine-thanks");

    await page.getByLabel("Find", { exact: true }).fill("(\\w+), (\\w+)");
    await page.getByLabel("Replace with").fill("$2 $1");
    await page.getByLabel("Regular expression").check();
    await page.getByRole("button", { name: "Replace all" }).click();
    await expect(result).toHaveValue("Hello world. How are you?\nthanks Fine!");
    await expect(page.getByRole("status").filter({ hasText: "replacement" })).toHaveText("1 replacement");
    await page.getByLabel("Find", { exact: true }).fill("(unclosed");
    await page.getByRole("button", { name: "Replace all" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid regular expression: /(unclosed/giu: Unterminated group");

    // a pattern that backtracks for ever is stopped, and the page stays usable
    await page.getByLabel("Text", { exact: true }).fill(`${"a".repeat(40)}!`);
    await page.getByLabel("Find", { exact: true }).fill("(a+)+$");
    await page.getByRole("button", { name: "Replace all" }).click();
    await expect(page.getByRole("alert")).toHaveText(/^The regular expression took too long on this text and was stopped\./);
    await expect(count("Characters")).toHaveText("41");

    await page.getByLabel("Text", { exact: true }).fill("pear\napple\npear\n  fig ");
    await page.getByRole("button", { name: "Remove duplicates" }).click();
    await expect(result).toHaveValue("pear\napple\n  fig ");
    await page.getByRole("button", { name: "Sort A to Z" }).click();
    await expect(result).toHaveValue("  fig \napple\npear\npear");

    await page.getByLabel("Title", { exact: true }).fill('  ..My <Holiday>: "Part 1/2"?\u202Egpj.exe  ');
    await expect(page.getByRole("status", { name: "Safe file name" })).toHaveText("My Holiday Part 12gpj.exe");
    checkErrors();
  });

  test("colour picker: exact conversions, contrast verdicts, palettes and picking from an image", async ({ page }) => {
    const { check: checkUploads } = watchForUploads(page, [fixture("halves.png")]);
    const checkErrors = watchErrors(page);
    await page.goto("/tools/colors");
    await page.getByLabel("Any CSS colour").fill("hsl(220 60% 50%)");
    await page.getByRole("button", { name: "Use", exact: true }).click();
    const value = (k: string) => page.getByTestId(`color-${k}`);
    await expect(value("hex")).toHaveText("#3366cc");
    await expect(value("rgb")).toHaveText("rgb(51 102 204)");
    await expect(value("hsl")).toHaveText("hsl(220 60% 50%)");
    await expect(value("hwb")).toHaveText("hwb(220 20% 20%)");
    await expect(value("oklch")).toHaveText("oklch(53.2% 0.1679 262.29)");
    await expect(value("cmyk")).toHaveText("cmyk(75% 50% 0% 20%)");
    await expect(page.getByTestId("palette-complementary")).toContainText("#cc9933");
    await expect(page.getByTestId("palette-triadic")).toContainText("#cc3366");

    await page.getByLabel("Any CSS colour").fill("not a colour");
    await page.getByRole("button", { name: "Use", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText('"not a colour" is not a colour.');

    await page.getByLabel("Text colour", { exact: true }).fill("#777777");
    await page.getByLabel("Background", { exact: true }).fill("#ffffff");
    await expect(page.getByTestId("contrast-ratio")).toHaveText("4.47:1");
    await expect(page.getByTestId("contrast-verdict")).toHaveText([
      "Fail: AA normal text (4.5:1)",
      "Pass: AA large text (3:1)",
      "Fail: AAA normal text (7:1)",
      "Fail: AAA large text (4.5:1)",
    ]);
    await page.getByLabel("Text colour", { exact: true }).fill("#000");
    await expect(page.getByTestId("contrast-ratio")).toHaveText("21.00:1");

    // pick from an image by mouse, then by keyboard
    await page.getByLabel("Image file").setInputFiles(fixture("halves.png"));
    const canvas = page.getByTestId("image-canvas");
    await expect(canvas).toBeVisible();
    const box = (await canvas.boundingBox())!;
    await canvas.click({ position: { x: box.width * 0.25, y: box.height / 2 } });
    await expect(value("hex")).toHaveText("#3366cc");
    // a keyboard user's pointer is elsewhere: Chromium sends a mouse move after a layout change,
    // and a pointer resting on the image would move the cursor back under it
    await page.mouse.move(0, 0);
    await canvas.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Enter");
    await expect(value("hex")).toHaveText("#ff8000");
    await expect(value("cmyk")).toHaveText("cmyk(0% 49.8% 100% 0%)");
    // keys faster than the page renders (a held key, a slow phone): every one moves the cursor
    await canvas.evaluate((el) => {
      for (let i = 0; i < 5; i++) el.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft", shiftKey: true, bubbles: true }));
      el.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    await expect(value("hex")).toHaveText("#3366cc");

    await page.getByLabel("Image file").setInputFiles(fixture("notes.mp4"));
    await expect(page.getByRole("region", { name: "Pick from an image" }).getByRole("alert")).toContainText("This file is not an image your browser can open.");
    checkUploads();
    checkErrors();
  });

  test("media tools: info, a fast cut, a frame grab and a thumbnail sheet, checked with ffprobe", async ({ page }) => {
    test.setTimeout(120_000);
    const { check: checkUploads } = watchForUploads(page, [fixture("clip.mp4")]);
    const checkErrors = watchErrors(page);
    await page.goto("/tools/media");
    await page.getByLabel("Video or audio file").setInputFiles(fixture("clip.mp4"));
    const general = page.getByTestId("media-info-general");
    await expect(general).toContainText("Duration");
    await expect(general).toContainText("clip.mp4");
    await expect(general.getByRole("row", { name: /^Duration/ })).toContainText(/0:04\.0\d\d/);
    await expect(general.getByRole("row", { name: /^Container/ })).toContainText("MP4 (video/mp4");
    await expect(general.getByRole("row", { name: /^Overall bitrate/ })).toContainText(/^Overall bitrate\s*\d+ kb\/s$/);
    const video = page.getByTestId("media-info-video");
    await expect(video.getByRole("row", { name: /^Codec/ })).toContainText("H.264 (AVC)");
    await expect(video.getByRole("row", { name: /^Resolution/ })).toContainText("640 × 360");
    await expect(video.getByRole("row", { name: /^Frame rate/ })).toContainText("30.00 fps");
    const audio = page.getByTestId("media-info-audio");
    await expect(audio.getByRole("row", { name: /^Codec/ })).toContainText("AAC");
    await expect(audio.getByRole("row", { name: /^Channels/ })).toContainText("2");
    await expect(audio.getByRole("row", { name: /^Sample rate/ })).toContainText("48000 Hz");
    // made at 128 kb/s by ffmpeg; the container's own figure, within a few kb/s
    await expect(audio.getByRole("row", { name: /^Bitrate/ })).toContainText(/^Bitrate\s*1(2\d|3[0-5]) kb\/s$/);
    await expect(video.getByRole("row", { name: /^Bitrate/ })).toContainText(/^Bitrate\s*\d+ kb\/s$/);
    await expect(page.getByTestId("media-info-tags")).toContainText("Tools Test Clip");

    // cut 1 s to 3 s without re-encoding
    const trim = page.getByRole("region", { name: "Trim or cut a clip" });
    await trim.getByLabel("Start").fill("1");
    await trim.getByLabel("End").fill("0:03");
    await trim.getByRole("button", { name: "Cut clip" }).click();
    const cut = await saveResult(page, /^Save clip \(trimmed\)\.mp4/);
    expect(cut.suggested).toBe("clip (trimmed).mp4");
    const cutProbe = await probe(cut.file);
    expect(stream(cutProbe, "video")).toMatchObject({ codec_name: "h264", width: 640, height: 360 });
    expect(stream(cutProbe, "audio")?.codec_name).toBe("aac");
    expect(Math.abs(duration(cutProbe) - 2)).toBeLessThanOrEqual(0.2);
    // not re-encoded: the cut's video packets are the source's, byte-size for byte-size, from the key frame at 1 s
    const packetSizes = async (file: string) =>
      (await run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=size", "-of", "csv=p=0", file])).stdout.trim().split("\n").map(Number);
    const cutPackets = await packetSizes(cut.file);
    expect(cutPackets.length).toBeGreaterThanOrEqual(60);
    expect(cutPackets).toEqual((await packetSizes(fixture("clip.mp4"))).slice(30, 30 + cutPackets.length));

    // a frame at 2 s as PNG
    const frame = page.getByRole("region", { name: "Frame grab" });
    await frame.getByLabel("Time").fill("2");
    await frame.getByRole("button", { name: "Grab frame" }).click();
    await expect(frame).toContainText("Frame at 0:02.000, 640 × 360");
    const png = await saveResult(page, /^Save clip \(frame 0-02\.000\)\.png/);
    expect(stream(await probe(png.file), "video")).toMatchObject({ codec_name: "png", width: 640, height: 360 });
    await frame.getByLabel("Image format").selectOption("image/jpeg");
    await frame.getByLabel("Time").fill("3");
    await frame.getByRole("button", { name: "Grab frame" }).click();
    const jpeg = await saveResult(page, /^Save clip \(frame 0-03\.000\)\.jpg/);
    expect(stream(await probe(jpeg.file), "video")).toMatchObject({ codec_name: "mjpeg", width: 640, height: 360 });

    // a sheet of 4 frames: 2 × 2 tiles of 320 × 180 with 4 px gaps
    const sheet = page.getByRole("region", { name: "Thumbnail sheet" });
    await sheet.getByLabel("Frames").selectOption("4");
    await sheet.getByRole("button", { name: "Make sheet" }).click();
    const jpg = await saveResult(page, /^Save clip \(4 thumbnails\)\.jpg/);
    expect(stream(await probe(jpg.file), "video")).toMatchObject({ codec_name: "mjpeg", width: 652, height: 372 });

    // a time past the end is refused with a clear message
    await frame.getByLabel("Time").fill("9");
    await frame.getByRole("button", { name: "Grab frame" }).click();
    // the frame grab has one time, not the clip tool's start and end
    await expect(frame.getByRole("alert")).toHaveText("Enter a time inside the file, between its start and its end.");
    checkUploads();
    checkErrors();
  });

  test("media tools: a damaged file and a file that is not media get clear errors", async ({ page }) => {
    await page.goto("/tools/media");
    const picker = page.getByLabel("Video or audio file");
    await picker.setInputFiles(fixture("damaged.mp4"));
    await expect(page.getByRole("alert")).toHaveText(/^This file looks damaged or incomplete/);
    await picker.setInputFiles(fixture("notes.mp4"));
    await expect(page.getByRole("alert")).toHaveText(/^This file is not a video or audio file this tool can read\./);
    // the page still works afterwards
    await picker.setInputFiles(fixture("clip.mp4"));
    await expect(page.getByTestId("media-info-video")).toContainText("640 × 360");
  });

  test("converters: WEBM at 240p, MP3, WAV, M4A and a GIF, checked with ffprobe", async ({ page }) => {
    test.setTimeout(180_000);
    const { check: checkUploads } = watchForUploads(page, [fixture("clip.mp4"), fixture("tone.wav")]);
    const checkErrors = watchErrors(page);
    await page.goto("/tools/converters");
    const picker = page.getByLabel("Video or audio file");
    const target = page.getByLabel("Convert to");
    const convert = page.getByRole("button", { name: "Convert", exact: true });

    await picker.setInputFiles(fixture("clip.mp4"));
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible();
    await target.selectOption("webm");
    await page.getByLabel("Resolution").selectOption("240");
    await convert.click();
    await expect(page.getByRole("progressbar")).toBeVisible();
    const webm = await saveResult(page, /^Save clip \(240p\)\.webm/);
    const webmProbe = await probe(webm.file);
    expect(stream(webmProbe, "video")).toMatchObject({ codec_name: "vp9", width: 426, height: 240 });
    expect(stream(webmProbe, "audio")?.codec_name).toBe("opus");
    expect(Math.abs(duration(webmProbe) - 4)).toBeLessThanOrEqual(0.2);

    await target.selectOption("m4a");
    await convert.click();
    const m4a = await saveResult(page, /^Save clip\.m4a/);
    const m4aProbe = await probe(m4a.file);
    expect(m4aProbe.streams.map((s) => s.codec_type)).toEqual(["audio"]);
    expect(stream(m4aProbe, "audio")?.codec_name).toBe("aac");
    expect(Math.abs(duration(m4aProbe) - 4)).toBeLessThanOrEqual(0.2);

    await target.selectOption("gif");
    await page.getByLabel("Width").selectOption("320");
    await page.getByLabel("From", { exact: true }).fill("1");
    await page.getByLabel("To", { exact: true }).fill("3");
    await convert.click();
    const gif = await saveResult(page, /^Save clip\.gif/);
    const gifProbe = await probe(gif.file);
    expect(stream(gifProbe, "video")).toMatchObject({ codec_name: "gif", width: 320, height: 180 });
    expect(Math.abs(duration(gifProbe) - 2)).toBeLessThanOrEqual(0.2);

    await picker.setInputFiles(fixture("tone.wav"));
    await expect(page.getByText("Duration: 0:03.000")).toBeVisible();
    await page.getByLabel("From", { exact: true }).fill("");
    await page.getByLabel("To", { exact: true }).fill("");
    await target.selectOption("mp3");
    await convert.click();
    const mp3 = await saveResult(page, /^Save tone\.mp3/);
    const mp3Probe = await probe(mp3.file);
    expect(stream(mp3Probe, "audio")).toMatchObject({ codec_name: "mp3", channels: 2 });
    expect(Math.abs(duration(mp3Probe) - 3)).toBeLessThanOrEqual(0.2);

    await picker.setInputFiles(fixture("clip.mp4"));
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible();
    await target.selectOption("wav");
    await page.getByLabel("From", { exact: true }).fill("0:01");
    await page.getByLabel("To", { exact: true }).fill("0:02.5");
    await convert.click();
    const wav = await saveResult(page, /^Save clip\.wav/);
    const wavProbe = await probe(wav.file);
    expect(stream(wavProbe, "audio")).toMatchObject({ codec_name: "pcm_s16le", channels: 2, sample_rate: "48000" });
    expect(Math.abs(duration(wavProbe) - 1.5)).toBeLessThanOrEqual(0.2);
    checkUploads();
    checkErrors();
  });

  test("converters: MP4 and AAC work where the browser can encode them, else the page says why", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto("/tools/converters");
    const can = await page.evaluate(async () => ({
      avc: (await VideoEncoder.isConfigSupported({ codec: "avc1.42001f", width: 426, height: 240 })).supported === true,
      aac: (await AudioEncoder.isConfigSupported({ codec: "mp4a.40.2", sampleRate: 44100, numberOfChannels: 2, bitrate: 160_000 })).supported === true,
    }));
    const picker = page.getByLabel("Video or audio file");
    const convert = page.getByRole("button", { name: "Convert", exact: true });

    // MP4 at 240p needs an H.264 encoder (the AAC track is copied as is)
    await picker.setInputFiles(fixture("clip.mp4"));
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("mp4");
    await page.getByLabel("Resolution").selectOption("240");
    await convert.click();
    if (can.avc) {
      const mp4 = await saveResult(page, /^Save clip \(240p\)\.mp4/);
      const p = await probe(mp4.file);
      expect(stream(p, "video")).toMatchObject({ codec_name: "h264", width: 426, height: 240 });
      expect(stream(p, "audio")?.codec_name).toBe("aac");
      expect(Math.abs(duration(p) - 4)).toBeLessThanOrEqual(0.2);
    } else {
      await expect(page.getByRole("alert")).toHaveText(/^This browser cannot encode H\.264 video and AAC audio, so MP4 \(H\.264 \+ AAC\) is not available here\./);
    }

    // PCM to M4A needs an AAC encoder
    await picker.setInputFiles(fixture("tone.wav"));
    await expect(page.getByText("Duration: 0:03.000")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("m4a");
    await convert.click();
    if (can.aac) {
      const m4a = await saveResult(page, /^Save tone\.m4a/);
      expect(stream(await probe(m4a.file), "audio")?.codec_name).toBe("aac");
    } else {
      await expect(page.getByRole("alert")).toHaveText(/^This browser cannot encode AAC audio, so M4A audio \(AAC\) is not available here\./);
    }
  });

  test("converters: a conversion shows the time left and can be canceled, and a damaged file is refused", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto("/tools/converters");
    const picker = page.getByLabel("Video or audio file");
    await picker.setInputFiles(fixture("damaged.mp4"));
    await expect(page.getByRole("alert")).toHaveText(/^This file looks damaged or incomplete/);
    await picker.setInputFiles(fixture("long.mp4"));
    await expect(page.getByText("Duration: 1:00.000")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("webm");
    await page.getByRole("button", { name: "Convert", exact: true }).click();
    await expect(page.getByRole("progressbar")).toBeVisible();
    // the time left is estimated once there is something to go on (at least 2 % and a second)
    const status = page.getByText(/^\d+% · /);
    await expect(status).toHaveText(/^([2-9]|[1-9]\d)% · about (\d+ s|\d+ min \d+ s) left$/, { timeout: 45_000 });
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("progressbar")).toBeHidden();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^Save / })).toHaveCount(0);
  });

  test("the upload watch flags any request but a plain GET, a body, and a request carrying the file", async ({ page }) => {
    await page.goto("/tools/text");
    const watch = watchForUploads(page, [fixture("tone.wav")]);
    const wav = readFileSync(fixture("tone.wav"));
    const slice = wav.subarray(wav.length / 2 - 32_000, wav.length / 2 + 32_000).toString("base64");
    const origin = new URL(page.url()).origin;
    await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      await fetch("/healthz?plain");
      await fetch("/healthz?empty-post", { method: "POST" }).catch(() => null);
      await fetch("/healthz?upload", { method: "PUT", body: bytes }).catch(() => null);
    }, slice);
    await expect.poll(() => watch.offenders.length).toBe(4);
    expect(watch.offenders).toEqual([
      `not a GET: POST ${origin}/healthz?empty-post`,
      `not a GET: PUT ${origin}/healthz?upload`,
      `64000-byte body: PUT ${origin}/healthz?upload`,
      `carried the file: PUT ${origin}/healthz?upload`,
    ]);
    expect(() => watch.check()).toThrow(/requests that could carry the file/);
  });

  test("converters: an animated WebP of a chosen range, read back frame by frame", async ({ page }) => {
    test.setTimeout(120_000);
    const { check: checkUploads } = watchForUploads(page, [fixture("clip.mp4")]);
    const checkErrors = watchErrors(page);
    await page.goto("/tools/converters");
    await page.getByLabel("Video or audio file").setInputFiles(fixture("clip.mp4"));
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("webp");
    await page.getByLabel("Width").selectOption("320");
    await page.getByLabel("Frames per second").selectOption("5");
    await page.getByLabel("Quality").selectOption("high");
    await page.getByLabel("From", { exact: true }).fill("1");
    await page.getByLabel("To", { exact: true }).fill("3");
    await page.getByRole("button", { name: "Convert", exact: true }).click();
    const out = await saveResult(page, /^Save clip\.webp/);
    expect(out.suggested).toBe("clip.webp");
    // the quality setting reaches the encoder: the same frames at low quality make a smaller file
    await page.getByLabel("Quality").selectOption("low");
    await page.getByRole("button", { name: "Convert", exact: true }).click();
    const low = await saveResult(page, /^Save clip\.webp/);
    expect(readFileSync(low.file).length).toBeLessThan(readFileSync(out.file).length * 0.8);

    // the container, read here byte by byte: 2 s at 5 fps = 10 frames of 320 × 180, 200 ms each
    const file = readFileSync(out.file);
    expect(file.toString("latin1", 0, 4)).toBe("RIFF");
    expect(file.readUInt32LE(4)).toBe(file.length - 8);
    expect(file.toString("latin1", 8, 12)).toBe("WEBP");
    const chunks: { type: string; data: Buffer }[] = [];
    for (let at = 12; at < file.length; ) {
      const size = file.readUInt32LE(at + 4);
      chunks.push({ type: file.toString("latin1", at, at + 4), data: file.subarray(at + 8, at + 8 + size) });
      at += 8 + size + (size % 2);
    }
    expect(chunks.slice(0, 2).map((c) => c.type)).toEqual(["VP8X", "ANIM"]);
    const vp8x = chunks[0]!.data;
    expect(vp8x[0]! & 0b10).toBe(0b10);
    expect([vp8x.readUIntLE(4, 3) + 1, vp8x.readUIntLE(7, 3) + 1]).toEqual([320, 180]);
    const frames = chunks.filter((c) => c.type === "ANMF");
    expect(frames).toHaveLength(10);
    for (const f of frames) {
      expect([f.data.readUIntLE(6, 3) + 1, f.data.readUIntLE(9, 3) + 1, f.data.readUIntLE(12, 3)]).toEqual([320, 180, 200]);
      expect(f.data.toString("latin1", 16, 20)).toBe("VP8 ");
    }

    // and decoded by the browser's own WebP decoder: animated, 10 frames, 320 × 180, frames differ
    const decoded = await page.evaluate(async (b64) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const decoder = new ImageDecoder({ data, type: "image/webp" });
      await decoder.tracks.ready;
      const track = decoder.tracks.selectedTrack!;
      const canvas = new OffscreenCanvas(320, 180);
      const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
      const sums: number[] = [];
      let width = 0;
      let height = 0;
      for (const index of [0, track.frameCount - 1]) {
        const { image } = await decoder.decode({ frameIndex: index });
        width = image.displayWidth;
        height = image.displayHeight;
        ctx.drawImage(image, 0, 0);
        image.close();
        sums.push(ctx.getImageData(0, 0, 320, 180).data.reduce((a, b) => (a * 31 + b) % 1_000_000_007, 0));
      }
      return { animated: track.animated, frameCount: track.frameCount, width, height, differ: sums[0] !== sums[1] };
    }, file.toString("base64"));
    expect(decoded).toEqual({ animated: true, frameCount: 10, width: 320, height: 180, differ: true });
    checkUploads();
    checkErrors();
  });

  test("a 5 GB file: media info reads it, converting and cutting it are refused with a reason, the page stays responsive", async ({ page }) => {
    test.setTimeout(120_000);
    const checkErrors = watchErrors(page);
    const { check: checkUploads } = watchForUploads(page, []);
    const tooLarge = /^This file is over 2 GB\. This browser keeps the result in memory until you save it, so files this large cannot be converted or cut here\. In Chrome or Edge, the Video Converters page can convert them by writing the result straight to your disk\./;
    // as in Firefox or Safari: no save dialog, so the result could only be made in memory
    await stubSavePicker(page, "absent");
    await page.goto("/tools/converters");
    await expect(page.getByRole("button", { name: "Convert", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Convert and save to a file/ })).toHaveCount(0);
    await page.getByLabel("Video or audio file").setInputFiles(fixture("huge.mp4"));
    await expect(page.getByText("Selected: huge.mp4 (5.37 GB)")).toBeVisible();
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("alert")).toHaveText(tooLarge);
    await page.getByLabel("Convert to").selectOption("wav");
    await page.getByRole("button", { name: "Convert", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText(tooLarge);
    // still answering input at once
    const from = page.getByLabel("From", { exact: true });
    await from.fill("0:01");
    await expect(from).toHaveValue("0:01");
    expect(await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(1))))).toBe(1);

    await page.goto("/tools/media");
    await page.getByLabel("Video or audio file").setInputFiles(fixture("huge.mp4"));
    await expect(page.getByTestId("media-info-video").getByRole("row", { name: /^Resolution/ })).toContainText("640 × 360", { timeout: 30_000 });
    await expect(page.getByTestId("media-info-general")).toContainText("5.37 GB");
    const trim = page.getByRole("region", { name: "Trim or cut a clip" });
    await trim.getByLabel("Start").fill("1");
    await trim.getByLabel("End").fill("2");
    await trim.getByRole("button", { name: "Cut clip" }).click();
    await expect(trim.getByRole("alert")).toHaveText(tooLarge);
    // a frame grab reads only what it needs, so it works on the big file too
    const frame = page.getByRole("region", { name: "Frame grab" });
    await frame.getByLabel("Time").fill("2");
    await frame.getByRole("button", { name: "Grab frame" }).click();
    await expect(frame).toContainText("Frame at 0:02.000, 640 × 360");
    checkUploads();
    checkErrors();
  });

  test("converters: saved to a file, the result streams into the picked file (OPFS stand-in), checked with ffprobe", async ({ page }) => {
    test.setTimeout(180_000);
    const { check: checkUploads } = watchForUploads(page, [fixture("clip.mp4"), fixture("long-tone.webm")]);
    const checkErrors = watchErrors(page);
    await stubSavePicker(page, "opfs");
    let downloads = 0;
    page.on("download", () => downloads++);
    await page.goto("/tools/converters");
    const picker = page.getByLabel("Video or audio file");
    const target = page.getByLabel("Convert to");
    const toFile = page.getByRole("button", { name: "Convert and save to a file…" });
    const saved = page.getByTestId("tool-saved");

    // WEBM at 240p: VP9 and Opus re-encoded, written through the StreamTarget
    await picker.setInputFiles(fixture("clip.mp4"));
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible();
    await target.selectOption("webm");
    await page.getByLabel("Resolution").selectOption("240");
    await toFile.click();
    await expect(saved).toHaveText(/^Saved clip \(240p\)\.webm \(\d+(\.\d+)? (KB|MB)\) where you chose\.$/, { timeout: 60_000 });
    expect(await page.evaluate(() => (window as unknown as { savePicks: string[] }).savePicks)).toEqual(["clip (240p).webm"]);
    await expect(page.getByRole("link", { name: /^Save / })).toHaveCount(0);
    const webm = await probe(await readOpfs(page, "clip (240p).webm"));
    expect(stream(webm, "video")).toMatchObject({ codec_name: "vp9", width: 426, height: 240 });
    expect(stream(webm, "audio")?.codec_name).toBe("opus");
    expect(Math.abs(duration(webm) - 4)).toBeLessThanOrEqual(0.2);

    // MP4 at the source size: H.264 and AAC copied, the index written at the end (no fast start in memory)
    await target.selectOption("mp4");
    await page.getByLabel("Resolution").selectOption("source");
    await toFile.click();
    await expect(saved).toHaveText(/^Saved clip\.mp4 /, { timeout: 60_000 });
    const mp4File = await readOpfs(page, "clip.mp4");
    const mp4 = await probe(mp4File);
    expect(stream(mp4, "video")).toMatchObject({ codec_name: "h264", width: 640, height: 360 });
    expect(stream(mp4, "audio")?.codec_name).toBe("aac");
    expect(Math.abs(duration(mp4) - 4)).toBeLessThanOrEqual(0.2);
    // a whole, playable file: every frame decodes to the end
    const frames = (await run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", mp4File])).stdout.trim();
    expect(Number(frames)).toBe(120);

    // 2 min of Opus to WAV: 23 MB, more than two of the 8 MB pieces, and the RIFF sizes patched at the start at the end
    await picker.setInputFiles(fixture("long-tone.webm"));
    await expect(page.getByText("Duration: 2:00.0")).toBeVisible();
    await target.selectOption("wav");
    await toFile.click();
    await expect(saved).toHaveText(/^Saved long-tone\.wav \(2[23](\.\d+)? MB\) where you chose\.$/, { timeout: 90_000 });
    const wavFile = await readOpfs(page, "long-tone.wav");
    const wav = await probe(wavFile);
    expect(stream(wav, "audio")).toMatchObject({ codec_name: "pcm_s16le", channels: 2, sample_rate: "48000" });
    expect(Math.abs(duration(wav) - 120)).toBeLessThanOrEqual(0.2);
    const riff = readFileSync(wavFile);
    expect(riff.readUInt32LE(4)).toBe(riff.length - 8);

    expect(downloads).toBe(0);
    checkUploads();
    checkErrors();
  });

  test("converters: a 5 GB file converts when saved to a file, and the in-memory button says why it is off", async ({ page }) => {
    test.setTimeout(120_000);
    const { check: checkUploads } = watchForUploads(page, []);
    const checkErrors = watchErrors(page);
    await stubSavePicker(page, "opfs");
    await page.goto("/tools/converters");
    await page.getByLabel("Video or audio file").setInputFiles(fixture("huge.mp4"));
    await expect(page.getByText("Selected: huge.mp4 (5.37 GB)")).toBeVisible();
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: "over 2 GB" })).toHaveText(
      'This file is over 2 GB, too large to convert in memory. Use "Convert and save to a file": the result is written straight to your disk as it is made.',
    );
    await expect(page.getByRole("button", { name: "Convert", exact: true })).toBeDisabled();
    await page.getByLabel("Convert to").selectOption("webm");
    await page.getByLabel("Resolution").selectOption("240");
    await page.getByRole("button", { name: "Convert and save to a file…" }).click();
    await expect(page.getByTestId("tool-saved")).toHaveText(/^Saved huge \(240p\)\.webm /, { timeout: 60_000 });
    const webm = await probe(await readOpfs(page, "huge (240p).webm"));
    expect(stream(webm, "video")).toMatchObject({ codec_name: "vp9", width: 426, height: 240 });
    expect(stream(webm, "audio")?.codec_name).toBe("opus");
    expect(Math.abs(duration(webm) - 4)).toBeLessThanOrEqual(0.2);
    checkUploads();
    checkErrors();
  });

  test("converters: a dismissed save dialog says so and converts nothing", async ({ page }) => {
    await stubSavePicker(page, "dismiss");
    let downloads = 0;
    page.on("download", () => downloads++);
    await page.goto("/tools/converters");
    await page.getByLabel("Video or audio file").setInputFiles(fixture("clip.mp4"));
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("wav");
    await page.getByRole("button", { name: "Convert and save to a file…" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      'No file was chosen, so nothing was converted. Choose "Convert and save to a file" again and pick where to save the result.',
    );
    expect(await page.evaluate(() => (window as unknown as { savePicks: string[] }).savePicks)).toEqual(["clip.wav"]);
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    await expect(page.getByTestId("tool-saved")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^Save / })).toHaveCount(0);
    expect(downloads).toBe(0);
    // the in-memory path still works afterwards
    await page.getByRole("button", { name: "Convert", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^Save clip\.wav/ })).toBeVisible({ timeout: 45_000 });
  });

  test("converters: canceling a conversion to a file leaves no file and no success", async ({ page }) => {
    test.setTimeout(180_000);
    await stubSavePicker(page, "opfs");
    await page.goto("/tools/converters");
    await page.getByLabel("Video or audio file").setInputFiles(fixture("long.mp4"));
    await expect(page.getByText("Duration: 1:00.000")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("webm");
    await page.getByRole("button", { name: "Convert and save to a file…" }).click();
    await expect(page.getByRole("progressbar")).toBeVisible();
    // Chromium writes to a temporary copy beside the file ("….crswap") and replaces the file only
    // when the stream is closed: wait until the first 8 MB piece has reached the copy (the result
    // streams to disk while it is made) and the picked file itself is still empty
    await expect.poll(() => opfsSize(page, "long.webm.crswap"), { timeout: 100_000, intervals: [500] }).toBeGreaterThanOrEqual(8 * 1024 ** 2);
    await expect(page.getByRole("progressbar")).toBeVisible();
    expect(await opfsSize(page, "long.webm")).toBe(0);
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("progressbar")).toBeHidden();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByTestId("tool-saved")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^Save / })).toHaveCount(0);
    // the writes are dropped (never committed) and the empty file the dialog made is removed;
    // had the partial result been committed, the file would stay with its bytes
    await expect.poll(() => opfsNames(page), { timeout: 15_000 }).toEqual([]);
  });

  test("converters: a codec this browser cannot decode gets a message naming it", async ({ page }) => {
    await page.goto("/tools/converters");
    const hevc = await page.evaluate(async () => (await VideoDecoder.isConfigSupported({ codec: "hvc1.1.6.L63.90", codedWidth: 320, codedHeight: 240 })).supported === true);
    await page.getByLabel("Video or audio file").setInputFiles(fixture("hevc.mp4"));
    await expect(page.getByText("Duration: 0:02.0")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("webm");
    await page.getByRole("button", { name: "Convert", exact: true }).click();
    if (hevc) {
      const webm = await saveResult(page, /^Save hevc\.webm/);
      expect(stream(await probe(webm.file), "video")).toMatchObject({ codec_name: "vp9", width: 320, height: 240 });
    } else {
      await expect(page.getByRole("alert")).toHaveText("This browser cannot decode the file's video stream (hevc). Try a recent Chrome or Edge, or another file.");
    }
  });

  test("colour picker: palette, screen eyedropper, copy buttons", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    // the screen eyedropper needs a person to click somewhere: this one answers pure red
    await page.addInitScript(() => {
      (window as unknown as { EyeDropper: unknown }).EyeDropper = class {
        open() {
          return Promise.resolve({ sRGBHex: "#ff0000" });
        }
      };
    });
    const checkErrors = watchErrors(page);
    await page.goto("/tools/colors");
    const value = (k: string) => page.getByTestId(`color-${k}`);

    const teal = page.getByRole("group", { name: "Palette" }).getByRole("button", { name: "Teal #14b8a6" });
    await teal.click();
    await expect(teal).toHaveAttribute("aria-pressed", "true");
    await expect(value("hex")).toHaveText("#14b8a6");
    await expect(value("rgb")).toHaveText("rgb(20 184 166)");
    // a generated palette swatch is picked too
    const swatch = page.getByTestId("palette-complementary").getByRole("button").last();
    const complement = (await swatch.textContent())!;
    expect(complement).toMatch(/^#[0-9a-f]{6}$/);
    expect(complement).not.toBe("#14b8a6");
    await swatch.click();
    await expect(value("hex")).toHaveText(complement);
    await expect(teal).toHaveAttribute("aria-pressed", "false");

    await page.getByRole("button", { name: "Pick from the screen" }).click();
    await expect(value("hex")).toHaveText("#ff0000");
    await expect(value("rgb")).toHaveText("rgb(255 0 0)");
    await expect(value("hsl")).toHaveText("hsl(0 100% 50%)");
    await expect(value("hwb")).toHaveText("hwb(0 0% 0%)");
    await expect(value("oklch")).toHaveText("oklch(62.8% 0.2577 29.23)");
    await expect(value("cmyk")).toHaveText("cmyk(0% 100% 100% 0%)");

    for (const [label, text] of [
      ["HEX", "#ff0000"],
      ["OKLCH", "oklch(62.8% 0.2577 29.23)"],
      ["CMYK", "cmyk(0% 100% 100% 0%)"],
    ] as const) {
      const button = page.getByRole("button", { name: `Copy ${label}` });
      await button.click();
      await expect(button).toHaveText("Copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    }
    checkErrors();
  });

  test("colour picker: a browser without the EyeDropper API gets a note, and oversized images are refused", async ({ page }) => {
    await page.addInitScript(() => delete (window as unknown as { EyeDropper?: unknown }).EyeDropper);
    await page.goto("/tools/colors");
    await expect(page.getByText("Picking from anywhere on the screen needs a browser with the EyeDropper API")).toBeVisible();
    await expect(page.getByRole("button", { name: "Pick from the screen" })).toHaveCount(0);
    const region = page.getByRole("region", { name: "Pick from an image" });
    await page.getByLabel("Image file").setInputFiles(fixture("heavy.png"));
    await expect(region.getByRole("alert")).toHaveText("This file is 300.0 MB. The colour picker opens image files up to 256 MB; save a smaller copy and try that.");
    await page.getByLabel("Image file").setInputFiles(fixture("giant.png"));
    await expect(region.getByRole("alert")).toHaveText(
      "This image is 20000 × 10000 pixels (200 megapixels). The colour picker opens images up to 100 megapixels, so your browser does not run out of memory; save a smaller copy and try that.",
    );
    await expect(page.getByTestId("image-canvas")).toBeHidden();
    // still usable: a normal image opens and picks
    await page.getByLabel("Image file").setInputFiles(fixture("halves.png"));
    const canvas = page.getByTestId("image-canvas");
    await expect(canvas).toBeVisible();
    const box = (await canvas.boundingBox())!;
    await canvas.click({ position: { x: box.width * 0.75, y: box.height / 2 } });
    await expect(page.getByTestId("color-hex")).toHaveText("#ff8000");
    // the loupe magnifies the pixels around the pointer: its centre is the picked pixel
    const loupe = page.getByRole("region", { name: "Pick from an image" }).locator("canvas[aria-hidden]");
    const centre = await loupe.evaluate((c: HTMLCanvasElement) => Array.from(c.getContext("2d")!.getImageData(c.width / 2, c.height / 2, 1, 1).data));
    expect(centre).toEqual([0xff, 0x80, 0x00, 0xff]);
  });

  test("converters: a file dropped on the page is read like a picked one", async ({ page }) => {
    await page.goto("/tools/converters");
    const clip = readFileSync(fixture("clip.mp4")).toString("base64");
    await page.getByText("Choose a file or drop it here.").evaluate((hint, b64) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "dropped.mp4", { type: "video/mp4" }));
      hint.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }, clip);
    await expect(page.getByText("Selected: dropped.mp4")).toBeVisible();
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible();
  });

  test("tool code loads only on its own page, and the media engine only once a file is picked", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (req) => {
      if (/\.js(\?|$)/.test(req.url())) scripts.push(new URL(req.url()).pathname);
    });
    const toolCode = /\/assets\/(tools-|media-tools|media\.worker|replace\.worker|copy-button|file-picker|tool-meta)/;
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(scripts.length).toBeGreaterThan(5);
    expect(scripts.filter((s) => toolCode.test(s))).toEqual([]);

    scripts.length = 0;
    await page.goto("/tools/converters");
    await page.waitForLoadState("networkidle");
    expect(scripts.some((s) => s.includes("/assets/tools-converters"))).toBe(true);
    expect(scripts.filter((s) => s.includes("media.worker"))).toEqual([]);
    await page.getByLabel("Video or audio file").setInputFiles(fixture("clip.mp4"));
    await expect(page.getByText("Duration: 0:04.0")).toBeVisible();
    expect(scripts.filter((s) => s.includes("media.worker"))).toHaveLength(1);
  });
});
