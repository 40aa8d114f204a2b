/**
 * What ffmpeg writes to a pipe must play in a browser with the right duration: fragmented MP4
 * (remux), WebM, MP3 and AAC/M4A, each played to its end in the system Chromium.
 */
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffmpegArgsForPlan, locateMediaTools, runFfmpeg, type MediaTools } from "#engine/media/ffmpeg.ts";
import type { MediaPlan, UpstreamStream } from "#engine/types.ts";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { MEDIA_CACHE_DIR } from "./helpers.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log(`skipping browser playback checks: ${CHROMIUM} not found`);

let media: MockMediaSet;
let tools: MediaTools;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  if (!hasChromium) return;
  [media, tools] = await Promise.all([ensureMockMedia(MEDIA_CACHE_DIR), locateMediaTools({})]);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-playback-"));
  await fs.writeFile(path.join(dir, "index.html"), "<!doctype html><html><body></body></html>");
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--autoplay-policy=no-user-gesture-required"],
  });
});
afterAll(async () => {
  await browser?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const s = (id: string, kind: UpstreamStream["kind"], url: string, extra: Partial<UpstreamStream>): UpstreamStream => ({ id, kind, url, transport: { type: "direct" }, container: "mp4", ...extra });

async function produce(plan: MediaPlan, name: string): Promise<string> {
  const inputs = plan.op === "remux" ? plan.inputs : plan.op === "transcode" ? [plan.input] : [];
  const run = runFfmpeg(tools, ffmpegArgsForPlan(plan), inputs.map((i) => createReadStream(i.url)));
  const file = path.join(dir, name);
  await pipeline(run.output, createWriteStream(file));
  return file;
}

async function play(file: string, tag: "video" | "audio") {
  const page = await browser.newPage();
  try {
    await page.goto(`file://${path.join(dir, "index.html")}`);
    return await page.evaluate(
      ([src, kind]) =>
        new Promise<{ ended: boolean; duration: number; width: number; height: number; error?: number }>((resolve) => {
          const el = document.createElement(kind as "video");
          el.muted = true;
          el.src = src as string;
          el.onloadedmetadata = () => {
            el.playbackRate = 4;
            void el.play();
          };
          el.onerror = () => resolve({ ended: false, duration: NaN, width: 0, height: 0, error: el.error?.code });
          el.onended = () => resolve({ ended: true, duration: el.duration, width: el.videoWidth ?? 0, height: el.videoHeight ?? 0 });
          setTimeout(() => resolve({ ended: false, duration: el.duration, width: 0, height: 0 }), 15_000);
        }),
      [`file://${file}`, tag],
    );
  } finally {
    await page.close();
  }
}

describe.skipIf(!hasChromium)("ffmpeg output plays in Chromium", () => {
  it("fragmented MP4 remux (H.264 + AAC) plays to the end with the right duration", async () => {
    const file = await produce(
      {
        op: "remux",
        inputs: [s("v", "video", media.video[720], { vcodec: "h264", height: 720 }), s("a", "audio", media.audioM4a, { acodec: "aac", container: "m4a" })],
        container: "mp4",
        mimeType: "video/mp4",
        extension: "mp4",
        bytes: null,
      },
      "remux.mp4",
    );
    const r = await play(file, "video");
    expect(r).toMatchObject({ ended: true, width: 1280, height: 720 });
    expect(Math.abs(r.duration - media.durationSeconds)).toBeLessThan(1);
  });

  it("WebM remux (VP9 + Opus) plays", async () => {
    const file = await produce(
      {
        op: "remux",
        inputs: [s("v", "video", media.webmVideo, { vcodec: "vp9", container: "webm" }), s("a", "audio", media.audioWebm, { acodec: "opus", container: "webm" })],
        container: "webm",
        mimeType: "video/webm",
        extension: "webm",
        bytes: null,
      },
      "remux.webm",
    );
    const r = await play(file, "video");
    expect(r.ended).toBe(true);
    expect(Math.abs(r.duration - media.durationSeconds)).toBeLessThan(1);
  });

  it("MP3 and AAC transcodes play", async () => {
    const input = s("a", "audio", media.audioWebm, { acodec: "opus", container: "webm" });
    const mp3 = await produce({ op: "transcode", input, codec: "mp3", bitrateKbps: 320, mimeType: "audio/mpeg", extension: "mp3", bytes: null }, "t.mp3");
    const m4a = await produce({ op: "transcode", input, codec: "aac", bitrateKbps: 256, mimeType: "audio/mp4", extension: "m4a", bytes: null }, "t.m4a");
    for (const file of [mp3, m4a]) {
      const r = await play(file, "audio");
      expect(r.ended).toBe(true);
      expect(Math.abs(r.duration - media.durationSeconds)).toBeLessThan(1);
    }
  });
});
