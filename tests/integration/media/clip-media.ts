/**
 * Media with a burned-in running timecode, for the clip tests (issue 33 §8): every frame carries
 * its own frame number as 16 black-or-white bars across the top of the picture (bit k = bar k),
 * which survives H.264 and VP9 at any sane quality and reads back without OCR. Generated once with
 * ffmpeg and cached beside the other mock media.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { SourceAdapter } from "#engine/sources/types.ts";
import type { ResolvedMedia } from "#engine/types.ts";
import { MEDIA_CACHE_DIR } from "./helpers.ts";

const run = promisify(execFile);

export const TIMECODE_FPS = 24;
/** keyframe every 2 s, and HLS segments of 2 s */
export const TIMECODE_GOP_FRAMES = 48;
export const TIMECODE_SECONDS = 120;
const WIDTH = 640;
const HEIGHT = 360;
const BAR_STRIP = 40;
const BARS = 16;

export interface TimecodeMedia {
  dir: string;
  /** H.264 + AAC, moov first */
  faststart: string;
  /** the same, moov after the media */
  moovAtEnd: string;
  /** H.264 video only, fragmented, one global sidx (YouTube's DASH shape) */
  fragmentedVideo: string;
  /** AAC only, fragmented, one global sidx */
  fragmentedAudio: string;
  /** VP9 + Opus WebM, with Cues */
  webm: string;
  /** its VP9 video alone, and its Opus audio alone, each a WebM with Cues (YouTube's VP9 DASH shape) */
  vp9Video: string;
  opusAudio: string;
  /** HLS media playlist of 2 s MPEG-TS segments (H.264 + AAC) */
  hls: string;
  /** 100 minutes of a still picture and a tone, moov first: a sample table (moov) larger than the first megabyte a resolve reads */
  longMoov: string;
}

async function ff(args: string[], cwd: string): Promise<void> {
  await run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { cwd, maxBuffer: 8 * 1024 * 1024 });
}

/** testsrc2 underneath (so the encoder has real work and the bytes are clip-sized), the frame number's bars on top */
const PICTURE = [
  "-f", "lavfi", "-i", `testsrc2=s=${WIDTH}x${HEIGHT}:r=${TIMECODE_FPS}:d=${TIMECODE_SECONDS}`,
  "-f", "lavfi", "-i", `color=c=black:s=${BARS * 2}x2:r=${TIMECODE_FPS}:d=${TIMECODE_SECONDS}`,
  "-f", "lavfi", "-i", `sine=f=440:sample_rate=48000:d=${TIMECODE_SECONDS}`,
  "-filter_complex",
  `[1:v]format=gray,geq=lum='255*mod(floor(N/pow(2\\,floor(X/2)))\\,2)',scale=${WIDTH}:${BAR_STRIP}:flags=neighbor,format=yuv420p[bars];[0:v][bars]overlay=0:0,format=yuv420p[v]`,
  "-map", "[v]", "-map", "2:a",
];
const GOP = ["-g", String(TIMECODE_GOP_FRAMES), "-keyint_min", String(TIMECODE_GOP_FRAMES), "-sc_threshold", "0"];

let pending: Promise<TimecodeMedia> | null = null;

export function ensureTimecodeMedia(): Promise<TimecodeMedia> {
  pending ??= generate();
  return pending;
}

async function generate(): Promise<TimecodeMedia> {
  const dir = path.join(MEDIA_CACHE_DIR, "clip-timecode-v3");
  const media: TimecodeMedia = {
    dir,
    faststart: path.join(dir, "faststart.mp4"),
    moovAtEnd: path.join(dir, "moov-at-end.mp4"),
    fragmentedVideo: path.join(dir, "fragmented-video.mp4"),
    fragmentedAudio: path.join(dir, "fragmented-audio.m4a"),
    webm: path.join(dir, "timecode.webm"),
    vp9Video: path.join(dir, "vp9-video.webm"),
    opusAudio: path.join(dir, "opus-audio.webm"),
    hls: path.join(dir, "hls", "index.m3u8"),
    longMoov: path.join(dir, "long-moov.mp4"),
  };
  if (existsSync(path.join(dir, ".complete"))) return media;
  const tmp = `${dir}.tmp-${process.pid}`;
  await fs.rm(tmp, { recursive: true, force: true });
  await fs.mkdir(path.join(tmp, "hls"), { recursive: true });
  try {
    await build(tmp);
  } catch (err) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw err;
  }
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
    // another process finished first: use its folder
    if (!existsSync(path.join(dir, ".complete"))) throw err;
    await fs.rm(tmp, { recursive: true, force: true });
  });
  return media;
}

async function build(tmp: string): Promise<void> {
  await ff([...PICTURE, "-c:v", "libx264", "-preset", "veryfast", "-b:v", "400k", ...GOP, "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "96k", "-f", "mp4", "moov-at-end.mp4"], tmp);
  await ff(["-i", "moov-at-end.mp4", "-c", "copy", "-movflags", "+faststart", "faststart.mp4"], tmp);
  await ff(["-i", "moov-at-end.mp4", "-map", "0:v", "-c", "copy", "-movflags", "dash+global_sidx", "-f", "mp4", "fragmented-video.mp4"], tmp);
  // audio alone has no keyframes to cut fragments at: 2 s fragments, as a DASH audio stream has
  await ff(["-i", "moov-at-end.mp4", "-map", "0:a", "-c", "copy", "-movflags", "dash+global_sidx", "-frag_duration", "2000000", "-f", "mp4", "fragmented-audio.m4a"], tmp);
  await ff(["-i", "moov-at-end.mp4", "-c", "copy", "-f", "hls", "-hls_time", "2", "-hls_list_size", "0", "-hls_playlist_type", "vod", "-hls_segment_filename", "hls/seg-%03d.ts", "hls/index.m3u8"], tmp);
  await ff(["-i", "moov-at-end.mp4", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "400k", ...GOP, "-c:a", "libopus", "-b:a", "64k", "-f", "webm", "timecode.webm"], tmp);
  await ff(["-i", "timecode.webm", "-map", "0:v", "-c", "copy", "-f", "webm", "vp9-video.webm"], tmp);
  await ff(["-i", "timecode.webm", "-map", "0:a", "-c", "copy", "-f", "webm", "opus-audio.webm"], tmp);
  await ff(
    ["-f", "lavfi", "-i", "color=c=gray:s=640x360:r=24:d=10", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000:d=10", "-c:v", "libx264", "-preset", "ultrafast", ...GOP, "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "32k", "-f", "mp4", "still.mp4"],
    tmp,
  );
  await ff(["-stream_loop", "599", "-i", "still.mp4", "-c", "copy", "-movflags", "+faststart", "-f", "mp4", "long-moov.mp4"], tmp);
  await fs.rm(path.join(tmp, "still.mp4"));
  await fs.writeFile(path.join(tmp, ".complete"), "");
}

/**
 * The frame number burned into every frame of a file's first video track, in decoding order of
 * presentation; a smaller picture (a preview JPEG) is scaled back to the source's size first.
 */
export async function frameNumbers(file: string): Promise<number[]> {
  const { stdout } = await run(
    "ffmpeg",
    ["-v", "error", "-i", file, "-map", "0:v:0", "-vsync", "passthrough", "-vf", `scale=${WIDTH}:${HEIGHT},crop=${WIDTH}:${BAR_STRIP}:0:0`, "-f", "rawvideo", "-pix_fmt", "gray", "-"],
    { encoding: "buffer", maxBuffer: 512 * 1024 * 1024 },
  );
  const frameBytes = WIDTH * BAR_STRIP;
  const barWidth = WIDTH / BARS;
  const row = (BAR_STRIP / 2) * WIDTH;
  const numbers: number[] = [];
  for (let o = 0; o + frameBytes <= stdout.length; o += frameBytes) {
    let n = 0;
    for (let k = 0; k < BARS; k++) if (stdout[o + row + k * barWidth + barWidth / 2]! > 128) n |= 1 << k;
    numbers.push(n);
  }
  return numbers;
}

/**
 * A YouTube-shaped answer: video and audio as two fragmented MP4 files, each with one global sidx,
 * read as direct streams (what googlevideo serves) from `host`, for any YouTube watch link; for
 * VP9_VIDEO_ID, VP9 video and Opus audio as two WebM files with Cues instead (its VP9 DASH streams).
 */
export const VP9_VIDEO_ID = "clipTimeVp9";
/** AV1 video (a fragmented MP4, as YouTube's formats above 1080p) and the AAC audio: `ensureAv1Video` makes it first */
export const AV1_VIDEO_ID = "clipTimeAv1";

/**
 * The timecode picture as AV1 (SVT-AV1, 8-bit Main, a key frame every 2 s), fragmented with one global sidx, beside the other
 * media; made on first use (about half a minute), apart from the rest so their cache stands.
 */
export async function ensureAv1Video(media: TimecodeMedia): Promise<string> {
  const file = path.join(media.dir, "av1-video.mp4");
  if (existsSync(file)) return file;
  const part = `av1-video.mp4.tmp-${process.pid}`;
  await ff(["-i", "moov-at-end.mp4", "-map", "0:v", "-c:v", "libsvtav1", "-preset", "10", "-crf", "35", ...GOP.slice(0, 2), "-pix_fmt", "yuv420p", "-movflags", "dash+global_sidx", "-f", "mp4", part], media.dir);
  await fs.rename(path.join(media.dir, part), file);
  return file;
}

/** That AV1 video with the AAC audio in one progressive MP4, moov first (a generic file): made on first use from both. */
export async function ensureAv1Progressive(media: TimecodeMedia): Promise<string> {
  const file = path.join(media.dir, "av1-aac.mp4");
  if (existsSync(file)) return file;
  const video = await ensureAv1Video(media);
  const part = `av1-aac.mp4.tmp-${process.pid}`;
  await ff(["-i", video, "-i", "fragmented-audio.m4a", "-map", "0:v", "-map", "1:a", "-c", "copy", "-movflags", "+faststart", "-f", "mp4", part], media.dir);
  await fs.rename(path.join(media.dir, part), file);
  return file;
}

export function youtubeShaped(media: TimecodeMedia, host: string): SourceAdapter {
  return {
    platform: "youtube",
    matches: (parsed) => parsed.kind === "youtube",
    async resolve(parsed) {
      if (parsed.kind !== "youtube") return { ok: false, code: "link.unsupported" };
      const sizeOf = async (file: string) => (await fs.stat(file)).size;
      const aac: ResolvedMedia["streams"][number] = { id: "140", kind: "audio", url: `${host}/fragmented-audio.m4a`, transport: { type: "direct" }, container: "m4a", acodec: "aac", bitrate: 96_000, contentLength: await sizeOf(media.fragmentedAudio) };
      const av1 = async (): Promise<ResolvedMedia["streams"]> => [
        { id: "395", kind: "video", url: `${host}/av1-video.mp4`, transport: { type: "direct" }, container: "mp4", vcodec: "av1", width: WIDTH, height: HEIGHT, bitrate: 400_000, contentLength: await sizeOf(path.join(media.dir, "av1-video.mp4")) },
        aac,
      ];
      const streams: ResolvedMedia["streams"] =
        parsed.id === AV1_VIDEO_ID
          ? await av1()
          : parsed.id === VP9_VIDEO_ID
          ? [
              { id: "243", kind: "video", url: `${host}/vp9-video.webm`, transport: { type: "direct" }, container: "webm", vcodec: "vp9", width: WIDTH, height: HEIGHT, bitrate: 400_000, contentLength: await sizeOf(media.vp9Video) },
              { id: "251", kind: "audio", url: `${host}/opus-audio.webm`, transport: { type: "direct" }, container: "webm", acodec: "opus", bitrate: 64_000, contentLength: await sizeOf(media.opusAudio) },
            ]
          : [
              { id: "134", kind: "video", url: `${host}/fragmented-video.mp4`, transport: { type: "direct" }, container: "mp4", vcodec: "h264", width: WIDTH, height: HEIGHT, bitrate: 400_000, contentLength: await sizeOf(media.fragmentedVideo) },
              aac,
            ];
      const resolved: ResolvedMedia = {
        platform: "youtube",
        sourceUrl: parsed.url,
        details: {
          ...{ id: parsed.id, title: "Timecode", description: "", thumbnail: "", channelTitle: "Test", channelId: "UC1", channelThumbnail: "", isMonetized: false },
          ...{ subscriberCount: "Unknown", publishedAt: "Jan 1, 2026", duration: "2:00", viewCount: "1 views", likeCount: "0", tags: [], downloadUrl: parsed.url },
          ...{ platform: "youtube", durationSeconds: TIMECODE_SECONDS, embedUrl: null },
        },
        streams,
        thumbnails: [],
        captions: [],
      };
      return { ok: true, media: resolved };
    },
  };
}

/** Sizes of the packets of a file whose presentation time lies in [from, to). */
export async function packetBytes(file: string, from: number, to: number): Promise<number> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,size", "-of", "csv=p=0", file], { maxBuffer: 64 * 1024 * 1024 });
  let total = 0;
  for (const line of stdout.trim().split("\n")) {
    const [pts, size] = line.split(",").map(Number) as [number, number];
    if (pts >= from && pts < to) total += size;
  }
  return total;
}

/** An MP4's index: every top-level box but the media (mdat, and a fragment's moof). */
export async function mp4IndexBytes(file: string): Promise<number> {
  const buf = await fs.readFile(file);
  let total = 0;
  for (let o = 0; o + 8 <= buf.length; ) {
    const size = buf.readUInt32BE(o);
    const type = buf.toString("latin1", o + 4, o + 8);
    if (size < 8) break;
    if (type !== "mdat" && type !== "moof") total += size;
    o += size;
  }
  return total;
}
