/**
 * The four tools pages doing real work in Chromium on files made with ffmpeg here, the outputs
 * checked with ffprobe (codec, duration ±0.2 s, dimensions) or as exact strings, and the network
 * watched so no request ever carries the visitor's file.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

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
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Fails the test if any request carries a slice of the given files (an upload in any form). */
function watchForUploads(page: Page, files: string[]): () => void {
  const needles = files.map((f) => {
    const bytes = readFileSync(f);
    const mid = Math.floor(bytes.length / 2);
    return bytes.subarray(mid, mid + 64);
  });
  const offenders: string[] = [];
  page.on("request", (req) => {
    const body = req.postDataBuffer();
    if (body && needles.some((n) => body.includes(n))) offenders.push(`${req.method()} ${req.url()}`);
    if (!/^(https?:\/\/127\.0\.0\.1:\d+\/|blob:|data:)/.test(req.url())) offenders.push(`outside request: ${req.url()}`);
  });
  return () => expect(offenders, "requests that carried the file or left the site").toEqual([]);
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
    const checkUploads = watchForUploads(page, [fixture("halves.png")]);
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
    await canvas.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Enter");
    await expect(value("hex")).toHaveText("#ff8000");
    await expect(value("cmyk")).toHaveText("cmyk(0% 49.8% 100% 0%)");

    await page.getByLabel("Image file").setInputFiles(fixture("notes.mp4"));
    await expect(page.getByRole("region", { name: "Pick from an image" }).getByRole("alert")).toContainText("This file is not an image your browser can open.");
    checkUploads();
    checkErrors();
  });

  test("media tools: info, a fast cut, a frame grab and a thumbnail sheet, checked with ffprobe", async ({ page }) => {
    test.setTimeout(120_000);
    const checkUploads = watchForUploads(page, [fixture("clip.mp4")]);
    const checkErrors = watchErrors(page);
    await page.goto("/tools/media");
    await page.getByLabel("Video or audio file").setInputFiles(fixture("clip.mp4"));
    const general = page.getByTestId("media-info-general");
    await expect(general).toContainText("Duration");
    await expect(general).toContainText("clip.mp4");
    await expect(general.getByRole("row", { name: /^Duration/ })).toContainText(/0:04\.0\d\d/);
    const video = page.getByTestId("media-info-video");
    await expect(video.getByRole("row", { name: /^Codec/ })).toContainText("H.264 (AVC)");
    await expect(video.getByRole("row", { name: /^Resolution/ })).toContainText("640 × 360");
    await expect(video.getByRole("row", { name: /^Frame rate/ })).toContainText("30.00 fps");
    const audio = page.getByTestId("media-info-audio");
    await expect(audio.getByRole("row", { name: /^Codec/ })).toContainText("AAC");
    await expect(audio.getByRole("row", { name: /^Channels/ })).toContainText("2");
    await expect(audio.getByRole("row", { name: /^Sample rate/ })).toContainText("48000 Hz");
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

    // a frame at 2 s as PNG
    const frame = page.getByRole("region", { name: "Frame grab" });
    await frame.getByLabel("Time").fill("2");
    await frame.getByRole("button", { name: "Grab frame" }).click();
    await expect(frame).toContainText("Frame at 0:02.000, 640 × 360");
    const png = await saveResult(page, /^Save clip \(frame 0-02\.000\)\.png/);
    expect(stream(await probe(png.file), "video")).toMatchObject({ codec_name: "png", width: 640, height: 360 });

    // a sheet of 4 frames: 2 × 2 tiles of 320 × 180 with 4 px gaps
    const sheet = page.getByRole("region", { name: "Thumbnail sheet" });
    await sheet.getByLabel("Frames").selectOption("4");
    await sheet.getByRole("button", { name: "Make sheet" }).click();
    const jpg = await saveResult(page, /^Save clip \(4 thumbnails\)\.jpg/);
    expect(stream(await probe(jpg.file), "video")).toMatchObject({ codec_name: "mjpeg", width: 652, height: 372 });

    // a time past the end is refused with a clear message
    await frame.getByLabel("Time").fill("9");
    await frame.getByRole("button", { name: "Grab frame" }).click();
    await expect(frame.getByRole("alert")).toHaveText("Enter a start and end time inside the file, with the end after the start.");
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
    const checkUploads = watchForUploads(page, [fixture("clip.mp4"), fixture("tone.wav")]);
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

  test("converters: a conversion can be canceled, and a damaged file is refused", async ({ page }) => {
    await page.goto("/tools/converters");
    const picker = page.getByLabel("Video or audio file");
    await picker.setInputFiles(fixture("damaged.mp4"));
    await expect(page.getByRole("alert")).toHaveText(/^This file looks damaged or incomplete/);
    await picker.setInputFiles(fixture("long.mp4"));
    await expect(page.getByText("Duration: 1:00.000")).toBeVisible();
    await page.getByLabel("Convert to").selectOption("webm");
    await page.getByRole("button", { name: "Convert", exact: true }).click();
    await expect(page.getByRole("progressbar")).toBeVisible();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("progressbar")).toBeHidden();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^Save / })).toHaveCount(0);
  });
});
