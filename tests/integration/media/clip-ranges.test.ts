/**
 * Clips that fetch only what they need (issue 33 §1, §8; docs/decisions/061), end to end: the
 * engine on a local CDN that counts the bytes it sends, the generic source on media whose every
 * frame carries its own number. Each clip's first and last frames are read back and compared with
 * the times asked; the bytes the CDN sent are compared with what the clip's samples hold.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium } from "@playwright/test";
import { createEngine, type Engine } from "#engine/index.ts";
import { IvfReader } from "#engine/media/clip/ivf.ts";
import { nalUnits } from "#engine/media/clip/mpegts.ts";
import { locateMediaTools } from "#engine/media/ffmpeg.ts";
import { parseMediaOptions } from "#engine/media/options/media-options.ts";
import { genericSource } from "#engine/sources/generic/index.ts";
import { dlPath, get, serveDownloads, testConfig } from "../engine-core/engine-fixture.ts";
import { AV1_VIDEO_ID, ensureAv1Progressive, ensureAv1Video, ensureTimecodeMedia, frameNumbers, mp4IndexBytes, packetBytes, TIMECODE_FPS, TIMECODE_GOP_FRAMES, VP9_VIDEO_ID, youtubeShaped, type TimecodeMedia } from "./clip-media.ts";
import { startCountingOrigin, type CountingOrigin } from "./counting-origin.ts";
import { childFfmpegCount, ffprobeFile } from "./helpers.ts";

const execFileAsync = promisify(execFile);

const anonymous = { kind: "anonymous" as const };
const HOST = "https://clips.example.test";
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let media: TimecodeMedia;
let origin: CountingOrigin;
let engine: Engine;
let server: { origin: string; close(): Promise<void> };
let tmp: string;
let nextIp = 1;

beforeAll(async () => {
  media = await ensureTimecodeMedia();
  origin = await startCountingOrigin(media.dir);
  engine = await createEngine(testConfig({ hostMap: `clips.example.test=${origin.origin}` }), { sources: [youtubeShaped(media, HOST), genericSource], media: await locateMediaTools({}), killGraceMs: 500 });
  server = await serveDownloads(engine);
  tmp = await mkdtemp(path.join(os.tmpdir(), "vidfetch-clips-"));
}, 180_000);
afterAll(async () => {
  await server?.close();
  await engine?.close();
  await origin?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** An EBML variable-length integer at `o`: its length and value (the marker bit kept for ids, dropped for sizes). */
function vint(buf: Buffer, o: number, keepMarker: boolean): { length: number; value: number } {
  const first = buf[o]!;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + buf[o + i]!;
  return { length, value };
}

/** A WebM's index: the segment's every child but the clusters (head, tracks, Cues). */
async function webmIndexBytes(file: string): Promise<number> {
  const buf = await readFile(file);
  let o = 0;
  const header = vint(buf, o, true);
  const headerSize = vint(buf, o + header.length, false);
  o += header.length + headerSize.length + headerSize.value;
  const segment = vint(buf, o, true);
  o += segment.length + vint(buf, o + segment.length, false).length;
  let total = o;
  while (o < buf.length) {
    const id = vint(buf, o, true);
    const size = vint(buf, o + id.length, false);
    const whole = id.length + size.length + size.value;
    if (id.value !== 0x1f43b675) total += whole;
    o += whole;
  }
  return total;
}

interface Clipped {
  file: string;
  /** bytes the CDN sent while the clip streamed */
  fetched: number;
  /** the paths the CDN was asked for meanwhile */
  paths: string[];
  created: { bytes: number | null };
  body: Buffer;
}

/** One clip through a signed link: the file on disk, and the bytes the CDN sent for it (the resolve's own reads left out). */
async function clip(url: string, format: string, options: Record<string, unknown>, opts: { countResolve?: boolean } = {}): Promise<Clipped> {
  await origin.settled();
  origin.reset();
  const created = await engine.createDownload({ url, format, caller: anonymous, ip: `198.51.100.${nextIp++}`, options: parseMediaOptions(options) });
  await origin.settled();
  if (!opts.countResolve) origin.reset();
  const res = await get(server.origin + dlPath(created.downloadUrl));
  expect(res.status).toBe(200);
  expect(res.outcome).toBe("end");
  await origin.settled();
  const ext = format === "webm" ? "webm" : format === "m4a" || format === "aac-256" ? "m4a" : format.startsWith("mp3") ? "mp3" : "mp4";
  const file = path.join(tmp, `${nextIp}.${ext}`);
  await writeFile(file, res.body);
  return { file, fetched: origin.bytes(), paths: origin.requests.map((r) => r.split(" ")[0]!), created, body: res.body };
}

async function durationOf(file: string): Promise<number> {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]);
  return Number(stdout.trim());
}

const GOP_SECONDS = TIMECODE_GOP_FRAMES / TIMECODE_FPS;
const frameAt = (seconds: number) => Math.round(seconds * TIMECODE_FPS);
const link = (name: string) => `${HOST}/${name}`;

/**
 * Starts at the keyframe at or before `start` (within one GOP), ends at `end`: a copy is cut at
 * the end in decoding order, which runs the B-frame delay (two frames here) behind the pictures.
 */
function expectKeyframeCut(frames: number[], start: number, end: number): void {
  expect(frames[0]!).toBeLessThanOrEqual(frameAt(start));
  expect(frames[0]!).toBeGreaterThan(frameAt(start) - TIMECODE_GOP_FRAMES);
  expect(frames[0]! % TIMECODE_GOP_FRAMES).toBe(0);
  expect(Math.abs(frames.at(-1)! - frameAt(end))).toBeLessThanOrEqual(2);
  // every frame in between, in order: nothing dropped, nothing repeated; a B-frame shown just
  // before the last frame may be left out (never more)
  const gaps = frames.flatMap((n, i) => (i > 0 && n !== frames[i - 1]! + 1 ? [{ at: i, step: n - frames[i - 1]! }] : []));
  expect(gaps.filter((g) => !(g.at >= frames.length - 2 && g.step === 2))).toEqual([]);
}

/** A long exact clip the visitor leaves after 32 KiB: every ffmpeg it started is gone within 5 s. */
async function expectFfmpegsStopWhenLeft(url: string, format: string): Promise<void> {
  const created = await engine.createDownload({ url, format, caller: anonymous, ip: `198.51.100.${nextIp++}`, options: parseMediaOptions({ start: "0:01.5", end: "1:50", exact: true }) });
  const left = await get(server.origin + dlPath(created.downloadUrl), {}, { abortAfterBytes: 32 * 1024 });
  expect(left.outcome).toBe("error");
  for (let waited = 0; (await childFfmpegCount()) > 0 && waited < 5000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  expect(await childFfmpegCount()).toBe(0);
}

/** From the frame shown at `start` to the last before `end`, every frame once, in order. */
function expectExactFrames(frames: number[], start: number, end: number): void {
  expect([frames[0], frames.at(-1)]).toEqual([frameAt(start), frameAt(end) - 1]);
  expect(frames.every((n, i) => i === 0 || n === frames[i - 1]! + 1)).toBe(true);
}

/** What the CDN sent stays within 1.5× of the clip's own samples (from one GOP before the start), plus the index. */
async function expectFetchedWithin(fetched: number, sources: string[], start: number, end: number, index: number): Promise<void> {
  let samples = 0;
  for (const source of sources) samples += await packetBytes(source, start - GOP_SECONDS, end);
  expect(fetched).toBeGreaterThan(0);
  expect(fetched).toBeLessThanOrEqual(1.5 * samples + index);
}

describe("a keyframe-accurate clip (stream copy) fetches only the byte ranges it needs", () => {
  for (const [name, file] of [
    ["a progressive MP4 with its moov first, from its sample table", "faststart.mp4"],
    ["a progressive MP4 with its moov at the end, from its sample table", "moov-at-end.mp4"],
  ] as const) {
    it(name, async () => {
      const source = path.join(media.dir, file);
      const got = await clip(link(file), "mp4-360", { start: "1:01", end: "1:11" });
      expectKeyframeCut(await frameNumbers(got.file), 61, 71);
      await expectFetchedWithin(got.fetched, [source], 61, 71, await mp4IndexBytes(source));
      // a clip's size is an estimate, and says so (the picker shows it with a "~")
      expect(got.created.bytes).toBeGreaterThan(0);
      expect(got.created.bytes!).toBeLessThan((await readFile(source)).length / 5);
    }, 60_000);
  }

  it("fragmented MP4 video and audio (YouTube's shape), from their sidx", async () => {
    const got = await clip("https://www.youtube.com/watch?v=clipTimecod", "mp4-360", { start: "1:01", end: "1:11" });
    expectKeyframeCut(await frameNumbers(got.file), 61, 71);
    expect((await ffprobeFile(got.file)).streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
    const index = (await mp4IndexBytes(media.fragmentedVideo)) + (await mp4IndexBytes(media.fragmentedAudio));
    await expectFetchedWithin(got.fetched, [media.fragmentedVideo, media.fragmentedAudio], 61, 71, index);
  }, 60_000);

  it("a WebM (VP9 + Opus), from its Cues", async () => {
    const source = path.join(media.dir, "timecode.webm");
    const got = await clip(link("timecode.webm"), "webm", { start: 61, end: 71 });
    expect((await ffprobeFile(got.file)).formatName).toContain("webm");
    expectKeyframeCut(await frameNumbers(got.file), 61, 71);
    await expectFetchedWithin(got.fetched, [source], 61, 71, await webmIndexBytes(source));
  }, 60_000);

  it("an HLS stream: only the segments that cover the clip are fetched", async () => {
    // resolve included: it reads the playlist and probes the first segment's head, and guesses at nothing else
    const got = await clip(`${link("hls/index.m3u8")}?fresh=1`, "mp4-360", { start: "1:01", end: "1:11" }, { countResolve: true });
    expectKeyframeCut(await frameNumbers(got.file), 61, 71);
    // 2 s segments: 60–62 s is seg-030, 70–72 s is seg-035
    const covering = ["/hls/seg-030.ts", "/hls/seg-031.ts", "/hls/seg-032.ts", "/hls/seg-033.ts", "/hls/seg-034.ts", "/hls/seg-035.ts"];
    expect([...new Set(got.paths)].sort()).toEqual(["/hls/index.m3u8", "/hls/seg-000.ts", ...covering]);
    let held = 0;
    for (const s of covering) held += (await readFile(path.join(media.dir, s))).length;
    const probe = origin.bytes("/hls/seg-000.ts");
    expect(probe).toBeLessThanOrEqual(1024 * 1024);
    expect(got.fetched - origin.bytes("/hls/index.m3u8") - probe).toBe(held);
    // an audio format is planned from the playlist alone while the link resolves: still only the covering segments
    const audio = await clip(`${link("hls/index.m3u8")}?fresh=2`, "mp3-128", { start: "1:01", end: "1:11" }, { countResolve: true });
    expect([...new Set(audio.paths)].sort()).toEqual(["/hls/index.m3u8", "/hls/seg-000.ts", ...covering]);
    expect(Math.abs((await durationOf(audio.file)) - 10)).toBeLessThan(0.1);
  }, 60_000);
});

describe("a long source", () => {
  it("a progressive MP4 whose sample table is larger than a resolve's first read still resolves and cuts", async () => {
    const index = await mp4IndexBytes(media.longMoov);
    expect(index).toBeGreaterThan(1024 * 1024);
    const got = await clip(link("long-moov.mp4"), "mp4-360", { start: "1:00:00", end: "1:00:10" });
    expect(Math.abs((await durationOf(got.file)) - 10)).toBeLessThan(0.2);
    // a still picture's samples weigh next to nothing, so the ratio says little here: what counts is
    // that the index and a few windows were read, not the file
    expect(got.fetched).toBeLessThan(index + 1024 * 1024);
    expect(got.fetched).toBeLessThan((await stat(media.longMoov)).size / 4);
  }, 120_000);
});

describe("an exact clip", () => {
  it("starts and ends at the frames asked, within one frame", async () => {
    const got = await clip(link("faststart.mp4"), "mp4-360", { start: "1:01.5", end: "1:10.75", exact: true });
    const frames = await frameNumbers(got.file);
    expect(Math.abs(frames[0]! - frameAt(61.5))).toBeLessThanOrEqual(1);
    expect(Math.abs(frames.at(-1)! - frameAt(70.75))).toBeLessThanOrEqual(1);
    expect(frames.every((n, i) => i === 0 || n === frames[i - 1]! + 1)).toBe(true);
    const source = path.join(media.dir, "faststart.mp4");
    await expectFetchedWithin(got.fetched, [source], 61.5, 70.75, await mp4IndexBytes(source));
    // only the first and last GOP re-encoded (docs/decisions/072): 62 s to 70 s are the source's own pictures
    const copied = await copiedSlices(got.file, source);
    expect(copied).toEqual({ copied: 8 * TIMECODE_FPS, encoded: frameAt(62) - frameAt(61.5) + frameAt(70.75) - frameAt(70) });
    // the file lists the source's parameter sets and the re-encoded pictures' own
    expect(avccCounts(await readFile(got.file))).toEqual({ sps: 2, pps: 2 });
    expect(Math.abs((await durationOf(got.file)) - 9.25)).toBeLessThan(0.1);
  }, 60_000);

  it("of fragmented MP4 video and audio (YouTube's shape): the same, its audio encoded from the start", async () => {
    const got = await clip("https://www.youtube.com/watch?v=clipTimecod", "mp4-360", { start: "1:01.5", end: "1:10.75", exact: true });
    expectExactFrames(await frameNumbers(got.file), 61.5, 70.75);
    expect(await copiedSlices(got.file, media.fragmentedVideo)).toEqual({ copied: 8 * TIMECODE_FPS, encoded: 12 + 18 });
    const probe = await ffprobeFile(got.file);
    expect(probe.streams.map((st) => st.codec_type).sort()).toEqual(["audio", "video"]);
    const index = (await mp4IndexBytes(media.fragmentedVideo)) + (await mp4IndexBytes(media.fragmentedAudio));
    await expectFetchedWithin(got.fetched, [media.fragmentedVideo, media.fragmentedAudio], 61.5, 70.75, index);
  }, 60_000);

  it("copies every picture of a clip from one IDR to another, and re-encodes a clip inside one GOP whole", async () => {
    const source = path.join(media.dir, "faststart.mp4");
    const aligned = await clip(link("faststart.mp4"), "mp4-360", { start: 62, end: 70, exact: true });
    const frames = await frameNumbers(aligned.file);
    expect([frames[0], frames.at(-1), frames.length]).toEqual([frameAt(62), frameAt(70) - 1, 8 * TIMECODE_FPS]);
    expect(await copiedSlices(aligned.file, source)).toEqual({ copied: 8 * TIMECODE_FPS, encoded: 0 });
    expect(avccCounts(await readFile(aligned.file))).toEqual({ sps: 2, pps: 2 });

    const inside = await clip(link("faststart.mp4"), "mp4-360", { start: 62.5, end: 63.5, exact: true });
    const insideFrames = await frameNumbers(inside.file);
    expect([insideFrames[0], insideFrames.at(-1), insideFrames.length]).toEqual([frameAt(62.5), frameAt(63.5) - 1, TIMECODE_FPS]);
    expect(await copiedSlices(inside.file, source)).toEqual({ copied: 0, encoded: TIMECODE_FPS });
    expect(avccCounts(await readFile(inside.file))).toEqual({ sps: 1, pps: 1 });
  }, 60_000);

  it("stops every ffmpeg it started (the copy, the encoders, the mux) when the visitor leaves", async () => {
    await expectFfmpegsStopWhenLeft(link("faststart.mp4"), "mp4-360");
  }, 60_000);

  it.skipIf(!existsSync(CHROMIUM))("plays in Chromium to its end, each side of each join showing its own picture", async () => {
    const got = await clip(link("faststart.mp4"), "mp4-360", { start: "1:01.5", end: "1:10.75", exact: true });
    // the pictures on each side of the joins at 0.5 s (62 s) and 8.5 s (70 s), and at the ends, each seeked to its middle
    // (the fragmented MP4's video starts at its first decoding delay, as every file of ffmpeg's fragmented muxer does)
    // (not the last two pictures before an IDR: a seek to them shows the IDR, in the source's own GOPs too, 1534 at 64 s)
    const shown = await playInChromium(got.file, JOIN_PICTURES);
    expect(Math.abs(shown.duration - 9.25)).toBeLessThan(0.15);
    expect(shown.numbers).toEqual(JOIN_PICTURES.map((k) => frameAt(61.5) + k));
  }, 90_000);
});

/** Pictures of a 61.5–70.75 s clip on each side of its joins (0.5 s: 62 s, 8.5 s: 70 s) and at its ends. */
const JOIN_PICTURES = [0, 2, 9, 12, 13, 57, 100, 201, 204, 205, 221];

/**
 * Chromium plays `file` to its end (at 4×) and shows, after a seek to the middle of each of its
 * `pictures` (counted from the video's start), the frame number burned into it (read from the bars).
 */
async function playInChromium(file: string, pictures: readonly number[]): Promise<{ numbers: number[]; duration: number }> {
  // the middle of each picture's time on screen, as the file places it (an MP4 whose AAC was encoded from the clip's start
  // holds its first picture one priming delay longer, about 21 ms)
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", file]);
  const shown = stdout.trim().split("\n").map(Number).sort((a, b) => a - b);
  const times = pictures.map((k) => (shown[k]! + (shown[k + 1] ?? shown[k]! + 1 / TIMECODE_FPS)) / 2);
  // a file page may read the pixels of a file video
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, "--allow-file-access-from-files"] });
  try {
    const page = await browser.newPage();
    await page.goto(`file://${path.dirname(file)}/`);
    return await page.evaluate(
      async ([src, at]) => {
        const video = document.createElement("video");
        video.muted = true;
        video.src = src as string;
        await new Promise((resolve, reject) => {
          video.onloadeddata = resolve;
          video.onerror = () => reject(new Error(`media error ${video.error?.code}`));
        });
        const canvas = document.createElement("canvas");
        [canvas.width, canvas.height] = [video.videoWidth, video.videoHeight];
        const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
        const numbers: number[] = [];
        for (const t of at as number[]) {
          // seeked, and the picture presented (a busy machine may draw the canvas before it is)
          const presented = new Promise((resolve) => {
            video.requestVideoFrameCallback(resolve);
            setTimeout(resolve, 2000);
          });
          video.currentTime = t;
          await new Promise((resolve) => (video.onseeked = resolve));
          await presented;
          ctx.drawImage(video, 0, 0);
          let n = 0;
          // the 16 bars across the top (bit k = bar k, white = 1), read in the middle of each
          for (let k = 0; k < 16; k++) if (ctx.getImageData(k * 40 + 20, 20, 1, 1).data[0]! > 128) n += 2 ** k;
          numbers.push(n);
        }
        video.playbackRate = 4;
        await video.play();
        await new Promise((resolve) => (video.onended = resolve));
        return { numbers, duration: video.duration };
      },
      [`file://${file}`, times] as const,
    );
  } finally {
    await browser.close();
  }
}

/** The slices (VCL NAL units) of a file's H.264 video, in decoding order, split into those the source holds byte for byte and the others. */
async function copiedSlices(file: string, source: string): Promise<{ copied: number; encoded: number }> {
  const slices = async (f: string) => {
    const { stdout } = await execFileAsync("ffmpeg", ["-v", "error", "-i", f, "-map", "0:v:0", "-c", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", "-"], { encoding: "buffer", maxBuffer: 512 * 1024 * 1024 });
    return nalUnits(stdout)
      .filter((n) => [1, 5].includes(n[0]! & 0x1f))
      .map((n) => createHash("sha1").update(n).digest("hex"));
  };
  const known = new Set(await slices(source));
  const own = await slices(file);
  const copied = own.filter((d) => known.has(d)).length;
  return { copied, encoded: own.length - copied };
}

/** How many SPS and PPS the file's avcC lists. */
function avccCounts(mp4: Buffer): { sps: number; pps: number } {
  const record = mp4.subarray(mp4.indexOf("avcC") + 4);
  const sps = record[5]! & 0x1f;
  let at = 6;
  for (let i = 0; i < sps; i++) at += 2 + record.readUInt16BE(at);
  return { sps, pps: record[at]! };
}

describe("an exact clip of VP9 (YouTube's WebM streams)", () => {
  const url = `https://www.youtube.com/watch?v=${VP9_VIDEO_ID}`;

  it("re-encodes only its first and last GOP: the frames between are the source's byte for byte, its audio encoded from the start", async () => {
    const { got } = await expectSmartVp9Clip(url, media.vp9Video);
    await expectFetchedWithin(got.fetched, [media.vp9Video, media.opusAudio], 61.5, 70.75, (await webmIndexBytes(media.vp9Video)) + (await webmIndexBytes(media.opusAudio)));
  }, 60_000);

  it("copies every frame of a clip from one keyframe to another, and re-encodes a clip inside one GOP whole", async () => {
    await expectAlignedVp9Copy(url, media.vp9Video);

    const inside = await clip(url, "webm", { start: 62.5, end: 63.5, exact: true });
    const insideFrames = await frameNumbers(inside.file);
    expect([insideFrames[0], insideFrames.at(-1), insideFrames.length]).toEqual([frameAt(62.5), frameAt(63.5) - 1, TIMECODE_FPS]);
    expect(await copiedIvfFrames(inside.file, media.vp9Video)).toEqual({ copied: 0, encoded: TIMECODE_FPS });
  }, 60_000);

  itStopsAndPlays(url);
});

/**
 * An exact WEBM clip of `url` for 61.5–70.75 s: its frames the asked ones, 192 of them the VP9 `source`'s byte for byte (12 + 18
 * re-encoded), VP9 and Opus, 9.25 s long.
 */
async function expectSmartVp9Clip(url: string, source: string): Promise<{ got: Clipped; probe: Awaited<ReturnType<typeof ffprobeFile>> }> {
  const got = await clip(url, "webm", { start: "1:01.5", end: "1:10.75", exact: true });
  expectExactFrames(await frameNumbers(got.file), 61.5, 70.75);
  expect(await copiedIvfFrames(got.file, source)).toEqual({ copied: 8 * TIMECODE_FPS, encoded: 12 + 18 });
  const probe = await ffprobeFile(got.file);
  expect(probe.streams.map((st) => [st.codec_type, st.codec_name]).sort()).toEqual([["audio", "opus"], ["video", "vp9"]]);
  expect(Math.abs((await durationOf(got.file)) - 9.25)).toBeLessThan(0.1);
  return { got, probe };
}

/** An exact WEBM clip of `url` for 62–70 s, keyframe to keyframe: every frame the VP9 `source`'s byte for byte. */
async function expectAlignedVp9Copy(url: string, source: string): Promise<Clipped> {
  const aligned = await clip(url, "webm", { start: 62, end: 70, exact: true });
  const frames = await frameNumbers(aligned.file);
  expect([frames[0], frames.at(-1), frames.length]).toEqual([frameAt(62), frameAt(70) - 1, 8 * TIMECODE_FPS]);
  expect(await copiedIvfFrames(aligned.file, source)).toEqual({ copied: 8 * TIMECODE_FPS, encoded: 0 });
  return aligned;
}

/** An exact clip of `url` (WEBM unless told): a visitor who leaves stops every ffmpeg; Chromium plays it to its end, the right picture on each side of each join. */
function itStopsAndPlays(url: string, format = "webm"): void {
  it("stops every ffmpeg it started when the visitor leaves", async () => {
    await expectFfmpegsStopWhenLeft(url, format);
  }, 60_000);

  it.skipIf(!existsSync(CHROMIUM))("plays in Chromium to its end, each side of each join showing its own picture", async () => {
    const got = await clip(url, format, { start: "1:01.5", end: "1:10.75", exact: true });
    const shown = await playInChromium(got.file, JOIN_PICTURES);
    expect(Math.abs(shown.duration - 9.25)).toBeLessThan(0.15);
    expect(shown.numbers).toEqual(JOIN_PICTURES.map((k) => frameAt(61.5) + k));
  }, 90_000);
}

/** The frames of a file's VP9 or AV1 video (copied out as IVF), split into those the source holds byte for byte and the others. */
async function copiedIvfFrames(file: string, source: string): Promise<{ copied: number; encoded: number }> {
  const hashes = async (f: string) => (await ivfFrames(f)).map((data) => createHash("sha1").update(data).digest("hex"));
  const known = new Set(await hashes(source));
  const own = await hashes(file);
  const copied = own.filter((d) => known.has(d)).length;
  return { copied, encoded: own.length - copied };
}

describe("an exact clip of AV1 (YouTube's formats above 1080p)", () => {
  const url = `https://www.youtube.com/watch?v=${AV1_VIDEO_ID}`;
  let av1Video: string;
  beforeAll(async () => {
    av1Video = await ensureAv1Video(media);
  }, 180_000);

  it("re-encodes only its first and last GOP into MP4 and into WEBM: the frames between are the source's byte for byte", async () => {
    const got = await clip(url, "mp4-360", { start: "1:01.5", end: "1:10.75", exact: true });
    expectExactFrames(await frameNumbers(got.file), 61.5, 70.75);
    await expectAv1Parts(got.file, av1Video, frameAt(61.5), [12, 8 * TIMECODE_FPS, 18]);
    const probe = await ffprobeFile(got.file);
    expect(probe.streams.map((st) => [st.codec_type, st.codec_name]).sort()).toEqual([["audio", "aac"], ["video", "av1"]]);
    expect(Math.abs((await durationOf(got.file)) - 9.25)).toBeLessThan(0.1);
    await expectFetchedWithin(got.fetched, [av1Video, media.fragmentedAudio], 61.5, 70.75, (await mp4IndexBytes(av1Video)) + (await mp4IndexBytes(media.fragmentedAudio)));

    const webm = await clip(url, "webm", { start: "1:01.5", end: "1:10.75", exact: true });
    expectExactFrames(await frameNumbers(webm.file), 61.5, 70.75);
    await expectAv1Parts(webm.file, av1Video, frameAt(61.5), [12, 8 * TIMECODE_FPS, 18]);
    expect((await ffprobeFile(webm.file)).streams.map((st) => [st.codec_type, st.codec_name]).sort()).toEqual([["audio", "opus"], ["video", "av1"]]);
  }, 120_000);

  it("copies every frame of a clip from one key frame to another, and re-encodes a clip inside one GOP whole", async () => {
    const aligned = await clip(url, "mp4-360", { start: 62, end: 70, exact: true });
    const frames = await frameNumbers(aligned.file);
    expect([frames[0], frames.at(-1), frames.length]).toEqual([frameAt(62), frameAt(70) - 1, 8 * TIMECODE_FPS]);
    await expectAv1Parts(aligned.file, av1Video, frameAt(62), [0, 8 * TIMECODE_FPS, 0]);

    const inside = await clip(url, "mp4-360", { start: 62.5, end: 63.5, exact: true });
    const insideFrames = await frameNumbers(inside.file);
    expect([insideFrames[0], insideFrames.at(-1), insideFrames.length]).toEqual([frameAt(62.5), frameAt(63.5) - 1, TIMECODE_FPS]);
    await expectAv1Parts(inside.file, av1Video, frameAt(62.5), [TIMECODE_FPS, 0, 0]);
  }, 120_000);

  it("of a progressive MP4 with AAC muxed in (a generic file): the same cut, its audio copied in sync from the clip's start", async () => {
    const file = await ensureAv1Progressive(media);
    const got = await clip(link("av1-aac.mp4"), "mp4-360", { start: "1:01.5", end: "1:10.75", exact: true });
    expectExactFrames(await frameNumbers(got.file), 61.5, 70.75);
    await expectAv1Parts(got.file, av1Video, frameAt(61.5), [12, 8 * TIMECODE_FPS, 18]);
    expect((await ffprobeFile(got.file)).streams.map((st) => [st.codec_type, st.codec_name]).sort()).toEqual([["audio", "aac"], ["video", "av1"]]);
    await expectAudioCopiedInSync(got.file, file);
    await expectFetchedWithin(got.fetched, [file], 61.5, 70.75, await mp4IndexBytes(file));
  }, 120_000);

  itStopsAndPlays(url, "mp4-360");
});

/** A file's video copied out as IVF: its frames' bytes (for AV1, one temporal unit each), in order. */
async function ivfFrames(file: string): Promise<Buffer[]> {
  const { stdout } = await execFileAsync("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-c", "copy", "-f", "ivf", "-"], { encoding: "buffer", maxBuffer: 512 * 1024 * 1024 });
  return new IvfReader().push(stdout).map((frame) => frame.data);
}

/**
 * An AV1 clip whose first picture is the source's picture `first`, made of `[head, copied, tail]` temporal units: the copied
 * ones the source's for the same pictures byte for byte, the head's and the tail's re-encoded. A unit of a few bytes (a
 * frame shown again, show_existing_frame) is the same in any encode, so only the larger ones tell an encoded picture.
 */
async function expectAv1Parts(file: string, source: string, first: number, [head, copied, tail]: [number, number, number]): Promise<void> {
  const own = await ivfFrames(file);
  const theirs = (await ivfFrames(source)).slice(first, first + own.length);
  expect(own.length).toBe(head + copied + tail);
  const same = own.map((unit, i) => unit.equals(theirs[i]!));
  expect(same.slice(head, head + copied).every(Boolean)).toBe(true);
  const edges = [...own.slice(0, head), ...own.slice(head + copied)].map((unit, i) => ({ unit, same: [...same.slice(0, head), ...same.slice(head + copied)][i] }));
  expect(edges.filter((e) => e.unit.length > 16 && e.same)).toEqual([]);
  if (head > 0) expect(same[0]).toBe(false);
}

/**
 * A 61.5–70.75 s clip's audio is the `source`'s packets (their sizes in the same order), the first one within one packet of
 * the clip's start, placed where the source has it against the video: in sync within one packet, and as long as the clip.
 */
async function expectAudioCopiedInSync(file: string, source: string): Promise<void> {
  const own = await audioPackets(file);
  const theirs = await audioPackets(source);
  const from = theirs.findIndex((p) => p.size === own[0]!.size && own.slice(0, 50).every((q, i) => theirs[p.index + i]?.size === q.size));
  expect(from).toBeGreaterThanOrEqual(0);
  const packet = own[0]!.duration;
  expect(Math.abs(theirs[from]!.pts - 61.5)).toBeLessThanOrEqual(packet);
  // against the first frame's time in each file (a source's video may start a few milliseconds in)
  const videoStart = async (f: string) => Number((await ffprobeFile(f)).streams.find((st) => st.codec_type === "video")!.start_time);
  const sourceFrame = (await videoStart(source)) + frameAt(61.5) / TIMECODE_FPS;
  expect(Math.abs(own[0]!.pts - (await videoStart(file)) - (theirs[from]!.pts - sourceFrame))).toBeLessThanOrEqual(packet);
  expect(Math.abs(own.at(-1)!.pts + packet - own[0]!.pts - 9.25)).toBeLessThanOrEqual(packet);
}

describe("an exact clip of a WebM with its audio muxed (VP9 + Opus)", () => {
  const url = link("timecode.webm");

  it("re-encodes only its first and last GOP, its audio copied in sync from the clip's start, fetching its span once", async () => {
    const { got } = await expectSmartVp9Clip(url, media.webm);
    await expectAudioCopiedInSync(got.file, media.webm);
    await expectFetchedWithin(got.fetched, [media.webm], 61.5, 70.75, await webmIndexBytes(media.webm));
  }, 60_000);

  it("copies a clip from one keyframe to another whole, its audio to the clip's end", async () => {
    const aligned = await expectAlignedVp9Copy(url, media.webm);
    const own = await audioPackets(aligned.file);
    expect(Math.abs(own.at(-1)!.pts + own[0]!.duration - own[0]!.pts - 8)).toBeLessThanOrEqual(own[0]!.duration);
  }, 60_000);

  itStopsAndPlays(url);
});

/** A file's audio packets, in order: their time, length and size. */
async function audioPackets(file: string): Promise<{ index: number; pts: number; duration: number; size: number }[]> {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time,duration_time,size", "-of", "csv=p=0", file], { maxBuffer: 64 * 1024 * 1024 });
  return stdout
    .trim()
    .split("\n")
    .map((line, index) => {
      const [pts, duration, size] = line.split(",").map(Number) as [number, number, number];
      return { index, pts, duration, size };
    });
}

describe("an exact clip of other sources", () => {
  for (const [name, url, format] of [
    ["an HLS stream (its head decoded from its first covering segment)", "hls/index.m3u8", "mp4-360"],
  ] as const) {
    it(name, async () => {
      const got = await clip(link(url), format, { start: "0:41.25", end: "0:47.5", exact: true });
      const frames = await frameNumbers(got.file);
      expect(Math.abs(frames[0]! - frameAt(41.25))).toBeLessThanOrEqual(1);
      expect(Math.abs(frames.at(-1)! - frameAt(47.5))).toBeLessThanOrEqual(1);
      expect(frames.every((n, i) => i === 0 || n === frames[i - 1]! + 1)).toBe(true);
      // H.264 from HLS segments is cut smart too, its audio coming through the cut (docs/decisions/072)
      if (format !== "mp4-360") return;
      expect(await copiedSlices(got.file, path.join(media.dir, "moov-at-end.mp4"))).toEqual({ copied: 4 * TIMECODE_FPS, encoded: 18 + 36 });
      const audio = (await ffprobeFile(got.file)).streams.find((st) => st.codec_type === "audio");
      expect(Math.abs(Number(audio?.duration) - 6.25)).toBeLessThan(0.1);
    }, 60_000);
  }
});

describe("audio formats are cut the same way, and tags still work on clips", () => {
  it("an MP3 clip is the asked length and carries its ID3 tag", async () => {
    const got = await clip(link("faststart.mp4"), "mp3-128", { start: "0:30", end: "0:40" });
    expect(got.body.subarray(0, 3).toString("latin1")).toBe("ID3");
    const probe = await ffprobeFile(got.file);
    expect(probe.formatName).toBe("mp3");
    expect(Math.abs((await durationOf(got.file)) - 10)).toBeLessThan(0.1);
    const source = path.join(media.dir, "faststart.mp4");
    await expectFetchedWithin(got.fetched, [source], 30, 40, await mp4IndexBytes(source));
  }, 60_000);

  it("an M4A clip (AAC copied) is the asked length and its MP4 video clip carries the title", async () => {
    const audio = await clip(link("faststart.mp4"), "m4a", { start: 90, end: 100 });
    // copied AAC is cut at its packets (about 21 ms each), with the encoder's priming ahead of the first
    expect(Math.abs((await durationOf(audio.file)) - 10)).toBeLessThan(0.15);
    const video = await clip(link("faststart.mp4"), "mp4-360", { start: 90, end: 100 });
    const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-show_entries", "format_tags=title", "-of", "csv=p=0", video.file]);
    expect(stdout.trim()).not.toBe("");
  }, 60_000);
});

describe("a clip the source cannot honour is a 422, never the whole file", () => {
  const refused = async (format: string, options: Record<string, unknown>, url = link("faststart.mp4")) => {
    const error = await engine.createDownload({ url, format, caller: anonymous, ip: `198.51.100.${nextIp++}`, options: parseMediaOptions(options) }).then(
      () => null,
      (err: unknown) => err,
    );
    return error as { code?: string; status?: number } | null;
  };

  it("a start at or after the end", async () => {
    for (const options of [{ start: 50, end: 40 }, { start: "1:00", end: "1:00" }]) {
      expect(() => parseMediaOptions(options)).toThrow(expect.objectContaining({ code: "clip.out_of_range", status: 422 }));
    }
  });

  it("a start or an end beyond the duration", async () => {
    expect(await refused("mp4-360", { start: "2:00" })).toMatchObject({ code: "clip.out_of_range", status: 422 });
    expect(await refused("mp4-360", { start: 10, end: "5:00" })).toMatchObject({ code: "clip.out_of_range", status: 422 });
  });

  it("a clip of a thumbnail", async () => {
    const error = await refused("thumbnail-hd", { start: 10, end: 20 });
    // a generic file has no thumbnail at all: the format itself is unavailable before any clip is looked at
    expect(["clip.unavailable", "format.unavailable"]).toContain(error?.code);
    expect(error?.status).toBe(422);
  });
});
