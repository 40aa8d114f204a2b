/**
 * Every format operation with the real ffmpeg on generated media: plan → ffmpeg args → runFfmpeg
 * fed through pipes → a file on disk checked with ffprobe (codec, resolution, duration within
 * 1 s, MP3 bitrate) and fully decoded.
 */
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filenameFor, planFormat } from "#engine/formats.ts";
import { ffmpegArgsForPlan, locateMediaTools, runFfmpeg, type MediaTools } from "#engine/media/ffmpeg.ts";
import type { MediaPlan, ResolvedMedia, SegmentRef, UpstreamStream } from "#engine/types.ts";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { MEDIA_CACHE_DIR, decodesCleanly, ffprobeFile } from "./helpers.ts";

let media: MockMediaSet;
let tools: MediaTools;
let out: string;

beforeAll(async () => {
  [media, tools] = await Promise.all([ensureMockMedia(MEDIA_CACHE_DIR), locateMediaTools({})]);
  out = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-format-ops-"));
});
afterAll(async () => {
  if (out) await fs.rm(out, { recursive: true, force: true });
});

/** Local stand-in for the stream runner's readers: files instead of HTTP, same byte order. */
function openInput(s: UpstreamStream): Readable {
  if (s.transport.type === "direct") return createReadStream(s.url);
  const parts: SegmentRef[] = s.transport.init ? [s.transport.init, ...s.transport.segments] : s.transport.segments;
  const outStream = new PassThrough();
  void (async () => {
    for (const part of parts) {
      const src = part.range ? createReadStream(part.url, { start: part.range.start, end: part.range.end }) : createReadStream(part.url);
      await pipeline(src, outStream, { end: false });
    }
    outStream.end();
  })().catch((err: Error) => outStream.destroy(err));
  return outStream;
}

async function execute(plan: MediaPlan, name: string): Promise<string> {
  const file = path.join(out, name);
  if (plan.op === "passthrough") {
    await pipeline(openInput(plan.input), createWriteStream(file));
    return file;
  }
  const inputs = plan.op === "remux" ? plan.inputs : plan.op === "transcode" ? [plan.input] : [];
  const run = runFfmpeg(tools, ffmpegArgsForPlan(plan), inputs.map(openInput));
  await pipeline(run.output, createWriteStream(file));
  const exit = await run.exited;
  expect(exit.code).toBe(0);
  return file;
}

async function sizeOf(file: string) {
  return (await fs.stat(file)).size;
}

async function fileStream(p: Partial<UpstreamStream> & Pick<UpstreamStream, "id" | "kind" | "url">): Promise<UpstreamStream> {
  return { transport: { type: "direct" }, container: "mp4", contentLength: await sizeOf(p.url), ...p };
}

async function mediaFrom(streams: UpstreamStream[], durationSeconds: number): Promise<ResolvedMedia> {
  return {
    platform: "youtube",
    sourceUrl: "https://www.youtube.com/watch?v=aaaaaaaaaaa",
    details: {
      id: "aaaaaaaaaaa",
      title: "Mock clip",
      description: "",
      thumbnail: media.thumbnail,
      channelTitle: "",
      channelId: "",
      channelThumbnail: "",
      isMonetized: false,
      subscriberCount: "Unknown",
      publishedAt: "",
      duration: "0:06",
      viewCount: "",
      likeCount: "",
      tags: [],
      downloadUrl: "",
      platform: "youtube",
      durationSeconds,
      embedUrl: null,
    },
    streams,
    thumbnails: [{ url: media.thumbnail, width: 1280, height: 720, name: "maxres" }],
    captions: [],
  };
}

async function adaptiveMedia(): Promise<ResolvedMedia> {
  const streams = await Promise.all([
    ...([360, 480, 720, 1080] as const).map((h) =>
      fileStream({ id: `v${h}`, kind: "video", url: media.video[h], vcodec: "h264", width: ({ 360: 640, 480: 854, 720: 1280, 1080: 1920 } as const)[h], height: h }),
    ),
    fileStream({ id: "vp9", kind: "video", url: media.webmVideo, container: "webm", vcodec: "vp9", width: 1280, height: 720 }),
    fileStream({ id: "aac", kind: "audio", url: media.audioM4a, container: "m4a", acodec: "aac", bitrate: 128_000 }),
    fileStream({ id: "opus", kind: "audio", url: media.audioWebm, container: "webm", acodec: "opus", bitrate: 96_000 }),
    fileStream({ id: "prog", kind: "progressive", url: media.progressive, vcodec: "h264", acodec: "aac", width: 640, height: 360 }),
  ]);
  return mediaFrom(streams, media.durationSeconds);
}

const stream = (probe: Awaited<ReturnType<typeof ffprobeFile>>, type: string) => probe.streams.find((s) => s.codec_type === type);

describe("format operations with real ffmpeg (adaptive streams like YouTube's)", () => {
  for (const [id, height, width] of [
    ["mp4-360", 360, 640],
    ["mp4-480", 480, 854],
    ["mp4-720", 720, 1280],
    ["mp4-1080", 1080, 1920],
  ] as const) {
    it(`${id}: H.264 ${height}p + AAC remuxed into an MP4 with the right duration`, async () => {
      const resolved = await adaptiveMedia();
      const plan = planFormat(resolved, id);
      expect(plan.op).toBe("remux");
      const file = await execute(plan, filenameFor(resolved, id));
      const probe = await ffprobeFile(file);
      expect(probe.formatName).toContain("mp4");
      expect(stream(probe, "video")).toMatchObject({ codec_name: "h264", width, height });
      expect(stream(probe, "audio")).toMatchObject({ codec_name: "aac" });
      expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
      // a remux copies: the output is about the size of the inputs, as listFormats promised
      if (plan.op === "remux") expect(Math.abs((await sizeOf(file)) - plan.bytes!) / plan.bytes!).toBeLessThan(0.05);
      expect(await decodesCleanly(file)).toBe("");
    });
  }

  it("webm: VP9 + Opus remuxed into WebM", async () => {
    const resolved = await adaptiveMedia();
    const file = await execute(planFormat(resolved, "webm"), "out.webm");
    const probe = await ffprobeFile(file);
    expect(probe.formatName).toContain("webm");
    expect(stream(probe, "video")).toMatchObject({ codec_name: "vp9", width: 1280, height: 720 });
    expect(stream(probe, "audio")).toMatchObject({ codec_name: "opus" });
    expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
    expect(await decodesCleanly(file)).toBe("");
  });

  it("m4a: the AAC track as it is", async () => {
    const resolved = await adaptiveMedia();
    const plan = planFormat(resolved, "m4a");
    expect(plan.op).toBe("passthrough");
    const file = await execute(plan, "out.m4a");
    const probe = await ffprobeFile(file);
    expect(probe.streams).toHaveLength(1);
    expect(stream(probe, "audio")).toMatchObject({ codec_name: "aac" });
    expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
  });

  for (const [id, kbps] of [
    ["mp3-320", 320],
    ["mp3-256", 256],
    ["mp3-128", 128],
  ] as const) {
    it(`${id}: MP3 at ${kbps} kbps`, async () => {
      const resolved = await adaptiveMedia();
      const file = await execute(planFormat(resolved, id), `out-${kbps}.mp3`);
      const probe = await ffprobeFile(file);
      expect(probe.formatName).toBe("mp3");
      expect(stream(probe, "audio")).toMatchObject({ codec_name: "mp3", bit_rate: String(kbps * 1000) });
      expect(probe.streams).toHaveLength(1);
      expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
      expect(await decodesCleanly(file)).toBe("");
    });
  }

  it("aac-256: AAC in an M4A at 256 kbps, or at the source's own bitrate when that is lower", async () => {
    const resolved = await adaptiveMedia();
    const plan = planFormat(resolved, "aac-256");
    if (plan.op !== "transcode") throw new Error(`expected a transcode, got ${plan.op}`);
    const sourceKbps = (plan.input.bitrate ?? 256_000) / 1000;
    expect(plan.bitrateKbps).toBeLessThanOrEqual(256);
    expect(plan.bitrateKbps).toBeGreaterThanOrEqual(Math.min(256, sourceKbps * 0.95));
    const file = await execute(plan, "out-aac.m4a");
    const probe = await ffprobeFile(file);
    expect(probe.formatName).toContain("m4a");
    expect(stream(probe, "audio")).toMatchObject({ codec_name: "aac" });
    const bitrate = Number(stream(probe, "audio")!.bit_rate);
    expect(bitrate).toBeGreaterThan(plan.bitrateKbps * 1000 * 0.7);
    expect(bitrate).toBeLessThan(plan.bitrateKbps * 1000 * 1.2);
    expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
    expect(await decodesCleanly(file)).toBe("");
  });

  it("thumbnail-hd: the 1280×720 JPEG", async () => {
    const resolved = await adaptiveMedia();
    const plan = planFormat(resolved, "thumbnail-hd");
    expect(plan).toMatchObject({ op: "image", url: media.thumbnail });
    const probe = await ffprobeFile(media.thumbnail);
    expect(stream(probe, "video")).toMatchObject({ codec_name: "mjpeg", width: 1280, height: 720 });
    expect(filenameFor(resolved, "thumbnail-hd")).toBe("youtube-thumbnail-aaaaaaaaaaa.jpg");
  });

  it("mp4-720 re-encodes to H.264 when only VP9 exists at 720p", async () => {
    const resolved = await adaptiveMedia();
    resolved.streams = resolved.streams.filter((s) => s.id !== "v720");
    resolved.streams = resolved.streams.map((s) => (s.id === "vp9" ? { ...s, vcodec: "vp8" } : s)); // vp8 is not MP4-ready
    const plan = planFormat(resolved, "mp4-720");
    expect(plan).toMatchObject({ op: "remux", transcodeVideo: "h264" });
    // the file is really VP9, but the plan asked for H.264: ffmpeg decodes whatever arrives
    const file = await execute(plan, "transcoded.mp4");
    const probe = await ffprobeFile(file);
    expect(stream(probe, "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
  });
});

/** HLS/DASH streams as the generic adapter describes them: segment lists over files. */
async function readLines(file: string) {
  return (await fs.readFile(file, "utf8")).split("\n").map((l) => l.trim());
}

async function hlsSegments(playlist: string): Promise<{ init?: SegmentRef; segments: SegmentRef[] }> {
  const dir = path.dirname(playlist);
  const lines = await readLines(playlist);
  const segments: SegmentRef[] = [];
  let init: SegmentRef | undefined;
  let range: { start: number; end: number } | undefined;
  let next = 0;
  for (const line of lines) {
    const map = /^#EXT-X-MAP:URI="([^"]+)"/.exec(line);
    if (map) init = { url: path.join(dir, map[1]!) };
    const br = /^#EXT-X-BYTERANGE:(\d+)(?:@(\d+))?/.exec(line);
    if (br) {
      const start = br[2] !== undefined ? Number(br[2]) : next;
      range = { start, end: start + Number(br[1]) - 1 };
      next = range.end + 1;
    }
    if (line && !line.startsWith("#")) {
      segments.push(range ? { url: path.join(dir, line), range } : { url: path.join(dir, line) });
      range = undefined;
    }
  }
  return { init, segments };
}

describe("format operations over HLS segments", () => {
  const segStream = async (id: string, kind: UpstreamStream["kind"], playlist: string, extra: Partial<UpstreamStream>): Promise<UpstreamStream> => {
    const { init, segments } = await hlsSegments(playlist);
    return { id, kind, url: playlist, container: init ? "mp4" : "ts", transport: { type: "segments", protocol: "hls", init, segments }, ...extra };
  };

  it("mp4-360 from muxed TS segments, m4a from the same", async () => {
    const prog = await segStream("ts360", "progressive", media.manifests.hlsTsMuxed, { vcodec: "h264", acodec: "aac", width: 640, height: 360 });
    const resolved = await mediaFrom([prog], media.durationSeconds);
    const mp4 = await ffprobeFile(await execute(planFormat(resolved, "mp4-360"), "hls-360.mp4"));
    expect(stream(mp4, "video")).toMatchObject({ codec_name: "h264", height: 360 });
    expect(stream(mp4, "audio")).toMatchObject({ codec_name: "aac" });
    expect(Math.abs(mp4.duration - media.durationSeconds)).toBeLessThan(1);
    const m4a = await ffprobeFile(await execute(planFormat(resolved, "m4a"), "hls.m4a"));
    expect(m4a.streams.map((s) => s.codec_name)).toEqual(["aac"]);
    expect(Math.abs(m4a.duration - media.durationSeconds)).toBeLessThan(1);
  });

  it("mp4-720 from a video-only TS variant plus its separate audio group", async () => {
    const v = await segStream("ts720", "video", media.manifests.hlsTsVideo, { vcodec: "h264", width: 1280, height: 720 });
    const a = await segStream("aud", "audio", media.manifests.hlsAudio, { acodec: "aac" });
    const resolved = await mediaFrom([v, a], media.durationSeconds);
    const probe = await ffprobeFile(await execute(planFormat(resolved, "mp4-720"), "hls-720.mp4"));
    expect(stream(probe, "video")).toMatchObject({ codec_name: "h264", width: 1280, height: 720 });
    expect(stream(probe, "audio")).toMatchObject({ codec_name: "aac" });
    expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
  });

  it("mp4-480 from fMP4 segments with EXT-X-MAP", async () => {
    const v = await segStream("fmp4", "progressive", media.manifests.hlsFmp4, { vcodec: "h264", acodec: "aac", width: 854, height: 480 });
    const probe = await ffprobeFile(await execute(planFormat(await mediaFrom([v], media.durationSeconds), "mp4-480"), "hls-480.mp4"));
    expect(stream(probe, "video")).toMatchObject({ codec_name: "h264", height: 480 });
    expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
  });

  it("mp3-128 from byte-range TS segments", async () => {
    const v = await segStream("single", "progressive", media.manifests.hlsByteRange, { vcodec: "h264", acodec: "aac", width: 640, height: 360 });
    const probe = await ffprobeFile(await execute(planFormat(await mediaFrom([v], media.durationSeconds), "mp3-128"), "hls.mp3"));
    expect(stream(probe, "audio")).toMatchObject({ codec_name: "mp3", bit_rate: "128000" });
    expect(Math.abs(probe.duration - media.durationSeconds)).toBeLessThan(1);
  });
});

describe("a source cut midway", () => {
  it("fails the output instead of ending it", async () => {
    const resolved = await adaptiveMedia();
    const plan = planFormat(resolved, "mp3-128") as Extract<MediaPlan, { op: "transcode" }>;
    const cut = new PassThrough();
    const src = createReadStream(plan.input.url, { end: 20_000 });
    src.on("data", (c) => cut.write(c));
    src.on("end", () => cut.destroy(new Error("connection reset")));
    const run = runFfmpeg(tools, ffmpegArgsForPlan(plan), [cut]);
    await expect(pipeline(run.output, createWriteStream(path.join(out, "cut.mp3")))).rejects.toMatchObject({ code: "download.failed" });
    const exit = await run.exited;
    expect(exit.code === 0 && exit.signal === null).toBe(false);
  });
});
