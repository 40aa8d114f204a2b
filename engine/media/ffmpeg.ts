/**
 * ffmpeg, spawned directly. It never opens a URL: every input is an extra stdio pipe (fd 3, 4, …)
 * fed by our own readers, and the output is stdout, so the SSRF guard and parallel segment
 * fetching stay in our hands. One idempotent `shutdown()` per run (SIGTERM, SIGKILL after a
 * grace period); a failed run never ends its output cleanly, so a consumer cannot mistake a
 * truncated file for a complete one.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { PassThrough, type Readable, type Writable } from "node:stream";
import { EngineError, isEngineError } from "../errors.ts";
import type { Chapter, MediaPlan, PlanClip, PlanCut, UpstreamStream } from "../types.ts";
import { ffmetadata } from "./chapters/chapters.ts";
import { iso639Alpha3 } from "./audio/iso639.ts";
import { cutAudioFilter, cutDuration, cutVideoFilter } from "./sponsorblock/plan-sponsorblock.ts";
import { measureFilter, normalizeFilter, OUTPUT_SAMPLE_RATE, type LoudnessMeasure } from "./loudness/loudness.ts";
import { processFfmpegs, type WarmPool } from "./warm-processes.ts";

export interface MediaTools {
  ffmpeg: string;
  /** ffprobe binary; "" when none was found (the bundled ffmpeg ships without one) */
  ffprobe: string;
  /** ffmpeg's version string, e.g. "5.1.9-0+deb12u1" */
  version: string;
  source: "env" | "path" | "bundled";
  /** how `probeStream` inspects media: ffprobe when present, else parsing `ffmpeg -i` */
  probeWith: "ffprobe" | "ffmpeg";
  /** whether ffmpeg has the `subtitles` filter (built with libass), which burns subtitles into the picture (docs/decisions/069) */
  burnSubtitles: boolean;
}

/** How long a tool may take to print its version before it counts as unusable. */
const VERSION_TIMEOUT_MS = 10_000;

async function versionOf(binary: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(binary, ["-hide_banner", "-version"], { timeout: VERSION_TIMEOUT_MS }, (err, stdout) => {
      if (err) return resolve(null);
      const match = /version\s+(\S+)/.exec(String(stdout));
      resolve(match ? match[1]! : "unknown");
    });
  });
}

/** Whether ffmpeg lists the `subtitles` filter (libass): one `-filters` run at start, its few kilobytes of text searched. */
async function hasSubtitlesFilter(binary: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(binary, ["-hide_banner", "-filters"], { timeout: VERSION_TIMEOUT_MS }, (err, stdout) => {
      resolve(!err && /^\s*\S+\s+subtitles\s+V->V\b/m.test(String(stdout)));
    });
  });
}

function bundledFfmpeg(): { path: string; version: string } | null {
  try {
    const require = createRequire(import.meta.url);
    const mod = require("@ffmpeg-installer/ffmpeg") as { path: string; version: string };
    return existsSync(mod.path) ? mod : null;
  } catch {
    // the package throws a string on unsupported platforms or a missing binary: "not bundled"
    return null;
  }
}

/**
 * Finds ffmpeg/ffprobe: explicit paths (FFMPEG_PATH / FFPROBE_PATH, passed in by the host), then
 * the binaries on PATH, then the ffmpeg shipped by `@ffmpeg-installer/ffmpeg` (which has no
 * ffprobe: probing then parses `ffmpeg -i`).
 */
export async function locateMediaTools(opts: { ffmpegPath?: string; ffprobePath?: string } = {}): Promise<MediaTools> {
  let ffmpeg: string | null = null;
  let version: string | null;
  let source: MediaTools["source"] = "path";

  if (opts.ffmpegPath) {
    version = await versionOf(opts.ffmpegPath);
    if (!version) throw new EngineError("internal", { detail: `FFMPEG_PATH ${opts.ffmpegPath} is not a working ffmpeg` });
    ffmpeg = opts.ffmpegPath;
    source = "env";
  } else {
    version = await versionOf("ffmpeg");
    if (version) {
      ffmpeg = "ffmpeg";
      source = "path";
    } else {
      const bundled = bundledFfmpeg();
      if (bundled) {
        version = (await versionOf(bundled.path)) ?? bundled.version;
        ffmpeg = bundled.path;
        source = "bundled";
      }
    }
  }
  if (!ffmpeg || !version) {
    throw new EngineError("internal", { detail: "ffmpeg not found: set FFMPEG_PATH or install ffmpeg" });
  }

  const burnSubtitles = hasSubtitlesFilter(ffmpeg);
  let ffprobe = "";
  if (opts.ffprobePath) {
    if (!(await versionOf(opts.ffprobePath))) {
      throw new EngineError("internal", { detail: `FFPROBE_PATH ${opts.ffprobePath} is not a working ffprobe` });
    }
    ffprobe = opts.ffprobePath;
  } else {
    const sibling = path.isAbsolute(ffmpeg) ? path.join(path.dirname(ffmpeg), "ffprobe") : null;
    if (sibling && existsSync(sibling) && (await versionOf(sibling))) ffprobe = sibling;
    else if (await versionOf("ffprobe")) ffprobe = "ffprobe";
  }
  return { ffmpeg, ffprobe, version, source, probeWith: ffprobe ? "ffprobe" : "ffmpeg", burnSubtitles: await burnSubtitles };
}

/** Fragmented MP4 can be written to a pipe (no seek back to the moov) and still reports its duration. */
const FRAGMENTED_MP4 = ["-movflags", "frag_keyframe+empty_moov+default_base_moof"];
/**
 * A tagged one has no trailer (mfra): its fragment index holds absolute offsets, which the tags
 * written into the moov afterwards would move (docs/decisions/059); players find the fragments
 * without it, and the duration still reads.
 */
const FRAGMENTED_MP4_TAGGED = ["-movflags", "frag_keyframe+empty_moov+default_base_moof+skip_trailer"];
/** ffmpeg writes no ID3 tag of its own: ours goes ahead of the frames (media/tags/id3.ts), or none (a bare file) */
const NO_ID3 = ["-write_id3v1", "0", "-id3v2_version", "0"];
const BASE_ARGS = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error"];
/**
 * Written before the output pipe. On a pipe ffmpeg otherwise flushes after every packet (a
 * kilobyte or so for MP3), and relaying that many tiny writes costs the server real CPU; full
 * I/O buffers keep the relay cheap (figure: docs/performance.md).
 */
const OUTPUT_ARGS = ["-flush_packets", "0", "pipe:1"];

/**
 * Packets ffmpeg may queue per input when it reads several (video + audio): each input has its
 * own reading thread, and with the default of 8 the muxer, waiting for the other input's next
 * packet, polls instead of reading on, which made a remux from pipes many times slower than from
 * files. A full queue only happens while the client reads slower than the media arrives, and
 * holds less than the segments the reader may already hold. Figures: docs/decisions/022.
 */
export const INPUT_THREAD_QUEUE_PACKETS = 256;
/** A clip's: a second or two of packets read past its end instead of ten (docs/decisions/061). */
export const CLIP_THREAD_QUEUE_PACKETS = 32;

/**
 * `-i pipe:3`, `-i pipe:4`…; a clip's inputs seek first (`-ss`), and one the engine serves on
 * loopback (`urls[i]`, docs/decisions/061) is opened by its URL, the others keep their pipes in order.
 */
function inputArgs(count: number, clip?: PlanClip, urls?: readonly (string | null)[]): string[] {
  const args: string[] = [];
  let pipe = 3;
  for (let i = 0; i < count; i++) {
    // a clip's inputs read ahead of the muxer by this queue, past the clip's end too: a shorter one
    if (count > 1) args.push("-thread_queue_size", String(clip ? CLIP_THREAD_QUEUE_PACKETS : INPUT_THREAD_QUEUE_PACKETS));
    const seek = clip?.seeks[i] ?? 0;
    if (seek > 0) args.push("-ss", seek.toFixed(3));
    const offset = clip?.offsets?.[i] ?? 0;
    if (offset > 0) args.push("-itsoffset", offset.toFixed(6));
    const url = urls?.[i];
    // a loopback input answers a window at a time: ffmpeg asks again from where the answer ended,
    // at once, and only once (a read that fails is the engine's to report, not ffmpeg's to retry)
    if (url) args.push("-format_whitelist", LOOPBACK_DEMUXERS, "-reconnect", "1", "-reconnect_delay_max", "0", ...LOOPBACK_PROBE);
    args.push("-i", url ?? `pipe:${pipe++}`);
  }
  return args;
}

/**
 * The demuxers a loopback input may be read with: the containers of a direct stream, none of which
 * opens another URL. Bytes that probe as a playlist (HLS, DASH, concat) are refused: through an
 * http input, ffmpeg would fetch the URLs such a playlist names itself, past our guard.
 */
export const LOOPBACK_DEMUXERS = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,mpegts,mp3,aac,ogg,flac,wav";

/**
 * A clip's MP4 or WebM input says its codecs in its index: ffmpeg need not read the first
 * megabytes of media (its default probe) before it seeks away from them.
 */
const LOOPBACK_PROBE = ["-probesize", "32768", "-analyzeduration", "0"];

/** A clip's length, and for an exact one the video and audio re-encoded (whole: see docs/decisions/061). */
function clipOutputArgs(clip: PlanClip | undefined, cuts?: readonly PlanCut[]): string[] {
  // what a cut removes from inside the clip is not written either (docs/decisions/065)
  return clip ? ["-t", cutDuration(clip.duration, cuts).toFixed(3)] : [];
}

/** A plan's audio filters: its cuts' (SponsorBlock), then loudnorm's; none: no `-af`. */
function audioFilters(cuts: readonly PlanCut[] | undefined, ...more: Array<string | null>): string[] {
  const chain = [cuts?.length ? cutAudioFilter(cuts) : null, ...more].filter((f): f is string => f !== null);
  return chain.length > 0 ? ["-af", chain.join(",")] : [];
}

/**
 * A plan's chapters as one more input, ffmpeg's metadata format in a `data:` URI (no temp file, no
 * extra pipe), and `-map_chapters` from it; the MP4 muxer writes them as a chapter track and a
 * Nero `chpl` box in the moov, the WebM muxer as Matroska chapters, both on a pipe
 * (docs/decisions/064). `index` is that input's position, after the media inputs.
 */
function chapterArgs(chapters: readonly Chapter[] | undefined, index: number): string[] {
  if (!chapters || chapters.length === 0) return [];
  const uri = `data:text/plain;base64,${Buffer.from(ffmetadata(chapters), "utf8").toString("base64")}`;
  return ["-f", "ffmetadata", "-i", uri, "-map_chapters", String(index)];
}

/**
 * The language asked for written on the output's audio track (docs/decisions/067), in the three
 * letters of ISO 639-2 that MP4 and Matroska store ("de" → "ger"; "en-desc" is English).
 */
function audioLanguageArgs(language: string | undefined): string[] {
  const code = language ? iso639Alpha3(language) : undefined;
  return code ? ["-metadata:s:a:0", `language=${code}`] : [];
}

/**
 * A plan's subtitles (docs/decisions/069) come as SRT on the pipe after the media inputs' (a clip's
 * loopback inputs take none). Muxed, they are one more input, read whole when ffmpeg starts, and
 * their track carries the language (ISO 639-2) and the track's name; burned in, the `subtitles`
 * filter (libass) reads that pipe when the filter graph starts, and draws each cue on the frames of
 * its time (the graph's timeline is the output's: a clip's starts at its start, a cut's is closed up).
 */
function subtitleArgs(plan: Extract<MediaPlan, { op: "remux" }>, fd: number): { input: string[]; output: string[] } {
  const subtitles = plan.subtitles;
  if (subtitles?.mode !== "soft") return { input: [], output: [] };
  const code = iso639Alpha3(subtitles.track.languageCode);
  // MP4 keeps a track's name as its handler's, Matroska as its title
  const name = plan.container === "webm" ? `title=${subtitles.track.name}` : `handler_name=${subtitles.track.name}`;
  return {
    input: ["-f", "srt", "-i", `pipe:${fd}`],
    output: [
      ...["-map", `${plan.inputs.length}:0`, "-c:s", plan.container === "webm" ? "webvtt" : "mov_text"],
      ...(code ? ["-metadata:s:s:0", `language=${code}`] : []),
      ...["-metadata:s:s:0", name, "-disposition:s:0", "default"],
    ],
  };
}

/** The filter that burns the subtitles on pipe `fd` into the picture; inside a filter graph the colon of `pipe:N` is escaped twice (the graph's and the filter's own parser). */
export function burnFilter(fd: number): string {
  return `subtitles=filename=pipe\\\\:${fd}`;
}

/** Which input carries the video and which the audio, for `-map`. */
function pickTracks(inputs: UpstreamStream[]): { video: number | null; audio: number | null } {
  const find = (kind: UpstreamStream["kind"]) => {
    const i = inputs.findIndex((s) => s.kind === kind);
    return i < 0 ? null : i;
  };
  const progressive = find("progressive");
  return {
    video: find("video") ?? progressive,
    audio: find("audio") ?? progressive,
  };
}

/**
 * The ffmpeg command line for one plan (inputs on pipe:3…, or a clip's loopback URLs; a plan's
 * subtitles on the next pipe; output on pipe:1). `subtitlesEmpty`: no cue falls inside the output,
 * so a burn draws nothing (libass refuses an empty file); a muxed track is then an empty one.
 */
export function ffmpegArgsForPlan(plan: MediaPlan, inputUrls?: readonly (string | null)[], measured: LoudnessMeasure | null = null, subtitlesEmpty = false): string[] {
  switch (plan.op) {
    case "remux": {
      if (plan.inputs.length === 0) throw new EngineError("internal", { detail: "remux plan without inputs" });
      const { video, audio } = pickTracks(plan.inputs);
      const wantsVideo = plan.container !== "m4a";
      // a cut (SponsorBlock) re-encodes like an exact clip: the frames around each span are gone
      const cutting = (plan.cuts?.length ?? 0) > 0;
      const exact = plan.clip?.exact === true || cutting;
      const subtitleFd = 3 + plan.inputs.filter((_, i) => !inputUrls?.[i]).length;
      const subtitles = subtitleArgs(plan, subtitleFd);
      // subtitles drawn into the picture re-encode the video, after the cut and the scale (the text drawn at the output's size)
      const burning = plan.subtitles?.mode === "burn";
      const burn = burning && !subtitlesEmpty ? burnFilter(subtitleFd) : null;
      const cutFilter = cutting ? cutVideoFilter(plan.cuts!) : null;
      // the subtitles' input before the chapters': `-map_chapters` is an output option, which an input after it would be handed
      const args = [...BASE_ARGS, ...inputArgs(plan.inputs.length, plan.clip, inputUrls), ...subtitles.input, ...chapterArgs(plan.chapters, plan.inputs.length + (subtitles.input.length > 0 ? 1 : 0))];
      if (wantsVideo && video !== null) args.push("-map", `${video}:v:0`);
      if (audio !== null) args.push("-map", `${audio}:a:0`);
      if (!wantsVideo) args.push("-vn");
      if (wantsVideo && video !== null) {
        const vf = (...filters: Array<string | null>) => {
          const chain = filters.filter((f): f is string => f !== null);
          if (chain.length > 0) args.push("-vf", chain.join(","));
        };
        if ((exact || burning) && !plan.transcodeVideo && plan.container === "webm") {
          args.push("-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-crf", "32", "-b:v", "0");
          vf(cutFilter, burn);
        } else if (plan.transcodeVideo || exact || burning) {
          args.push("-c:v", "libx264", "-preset", "veryfast", "-crf", "22", "-pix_fmt", "yuv420p");
          // the quality is the shorter side: a vertical 1080×1920 at "720p" becomes 720×1280
          const scale = plan.height ? `scale=w='if(gte(iw,ih),-2,${plan.height})':h='if(gte(iw,ih),${plan.height},-2)'` : null;
          vf(cutFilter, scale, burn);
        } else {
          args.push("-c:v", "copy");
        }
      }
      if (audio !== null) {
        const audioCodec = plan.transcodeAudio ?? (exact ? (plan.container === "webm" ? "opus" : "aac") : undefined);
        if (audioCodec) args.push(...audioFilters(plan.cuts));
        if (audioCodec === "aac") args.push("-c:a", "aac", "-b:a", "192k");
        else if (audioCodec === "opus") args.push("-c:a", "libopus", "-b:a", "160k");
        else {
          args.push("-c:a", "copy");
          // AAC from MPEG-TS (HLS) arrives as ADTS, which MP4 needs converted; a no-op otherwise.
          const src = plan.inputs[audio]!;
          const maybeAdts = src.acodec === "aac" || (src.acodec === undefined && (src.container === "ts" || src.container === "aac"));
          if (plan.container !== "webm" && maybeAdts) args.push("-bsf:a", "aac_adtstoasc");
        }
      }
      args.push(...subtitles.output, ...clipOutputArgs(plan.clip, plan.cuts));
      if (audio !== null) args.push(...audioLanguageArgs(plan.audioLanguage));
      if (plan.container === "webm") args.push("-f", "webm");
      else args.push(...(plan.tags ? FRAGMENTED_MP4_TAGGED : FRAGMENTED_MP4), "-f", plan.container === "m4a" ? "ipod" : "mp4");
      args.push(...OUTPUT_ARGS);
      return args;
    }
    case "transcode": {
      // an MP3's chapters are frames of our ID3 tag (media/tags/id3.ts), not ffmpeg's
      const chapters = plan.codec === "mp3" ? [] : chapterArgs(plan.chapters, 1);
      const args = [...BASE_ARGS, ...inputArgs(1, plan.clip, inputUrls), ...chapters, "-map", "0:a:0", "-vn", ...clipOutputArgs(plan.clip, plan.cuts)];
      args.push(...audioFilters(plan.cuts, plan.loudness ? normalizeFilter(measured) : null));
      if (plan.loudness) args.push("-ar", String(OUTPUT_SAMPLE_RATE));
      if (plan.codec === "mp3") {
        // constant bitrate, so the file is what its label says and ffprobe reports it
        args.push("-c:a", "libmp3lame", "-b:a", `${plan.bitrateKbps}k`, ...NO_ID3, "-f", "mp3");
      } else {
        args.push(...audioLanguageArgs(plan.audioLanguage));
        args.push("-c:a", "aac", "-b:a", `${plan.bitrateKbps}k`, ...(plan.tags ? FRAGMENTED_MP4_TAGGED : FRAGMENTED_MP4), "-f", "ipod");
      }
      args.push(...OUTPUT_ARGS);
      return args;
    }
    case "passthrough":
    case "image":
    case "text":
      throw new EngineError("internal", { detail: `plan op ${plan.op} does not run ffmpeg` });
  }
}

/** A normalised transcode's first pass (docs/decisions/066): the same input and cut, loudnorm's measure on stderr, no output. */
export function loudnessMeasureArgs(plan: Extract<MediaPlan, { op: "transcode" }>, inputUrls?: readonly (string | null)[]): string[] {
  const base = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "info"];
  return [...base, ...inputArgs(1, plan.clip, inputUrls), "-map", "0:a:0", "-vn", ...clipOutputArgs(plan.clip, plan.cuts), ...audioFilters(plan.cuts, measureFilter()), "-f", "null", "-"];
}

/**
 * One frame at `seek` of a clip's input (docs/decisions/071): decoded from the keyframe before it,
 * scaled down to `width` at most (never up), written as a JPEG.
 */
export function frameArgs(seek: number, inputUrl: string | null, width: number): string[] {
  const clip: PlanClip = { start: seek, end: seek, seeks: [seek], duration: 0, exact: true };
  return [
    ...BASE_ARGS,
    ...inputArgs(1, clip, [inputUrl]),
    ...["-map", "0:v:0", "-an", "-sn", "-dn", "-frames:v", "1", "-vf", `scale='min(${width},iw)':-2`],
    ...["-c:v", "mjpeg", "-q:v", "4", "-f", "image2pipe", "pipe:1"],
  ];
}

/**
 * An exact clip cut smart (docs/decisions/072): the video (and a muxed source's audio) of the clip's span copied as MPEG-TS,
 * from the keyframe at or before its start to a little past its end, its times moved on by
 * SMART_CUT_ORIGIN_SECONDS so the frames before the start keep positive times.
 */
export const SMART_CUT_ORIGIN_SECONDS = 600;
/** read past a clip's end: the frames shown last may come a few frames later in decoding order */
const SMART_CUT_READ_PAST_SECONDS = 0.5;
const TS_OUTPUT = ["-muxdelay", "0", "-muxpreload", "0", "-f", "mpegts"];

/**
 * H.264 (and a muxed source's audio) is copied as MPEG-TS; VP9 and AV1 as IVF, which carries nothing else (ffmpeg's MPEG-TS muxer cannot carry VP9):
 * a muxed source's audio then goes to a second output, `audioPipe` (Matroska, copied from the first packet at or after the clip's start).
 */
export function smartCutReaderArgs(
  seek: number,
  inputUrl: string | null,
  duration: number,
  withAudio: boolean,
  codec: "h264" | "vp9" | "av1" = "h264",
  audioPipe?: number,
): string[] {
  const clip: PlanClip = { start: seek, end: seek + duration, seeks: [seek], duration, exact: false };
  const audio = withAudio && codec === "h264" ? ["-map", "0:a:0?", "-c:a", "copy"] : ["-an"];
  const length = ["-t", (duration + SMART_CUT_READ_PAST_SECONDS).toFixed(3)];
  // small clusters, each written as it closes: the audio keeps pace with the video on stdout (the mux waits for the slower of the two)
  const audioOutput =
    withAudio && codec !== "h264" && audioPipe !== undefined
      ? ["-map", "0:a:0", "-vn", "-sn", "-dn", "-c:a", "copy", "-ss", "0", ...length, "-output_ts_offset", String(SMART_CUT_ORIGIN_SECONDS)]
      : [];
  return [
    ...BASE_ARGS,
    ...inputArgs(1, clip, [inputUrl]),
    // a muxed source's audio comes along (its packets are passed on as they are), so nothing is fetched twice
    ...["-map", "0:v:0", ...audio, "-sn", "-dn", "-c:v", "copy"],
    ...length,
    ...["-output_ts_offset", String(SMART_CUT_ORIGIN_SECONDS), ...(codec === "h264" ? TS_OUTPUT : ["-f", "ivf"]), ...OUTPUT_ARGS],
    ...(audioOutput.length > 0 ? [...audioOutput, "-cluster_time_limit", "100", "-flush_packets", "1", "-f", "matroska", `pipe:${audioPipe}`] : []),
  ];
}

/**
 * Re-encodes the IVF video on pipe:3 (its times kept), from `range.from` to before `range.to`
 * (seconds), as VP9 profile 0 in IVF on the copy's time base (`timeBase`, num/den): a keyframe
 * first, every packet one shown frame (no alt-ref frames, no lag), close to the source's quality.
 * Without `profile0` (a whole re-encode of another profile), libvpx takes the profile of the decoded pictures.
 */
export function vp9CutEncoderArgs(range: { from: number; to: number }, timeBase: { num: number; den: number }, profile0: boolean): string[] {
  return [
    ...BASE_ARGS,
    ...["-copyts", "-f", "ivf", "-i", "pipe:3", "-map", "0:v:0", "-an", "-sn", "-dn"],
    ...["-vf", `trim=start=${range.from.toFixed(6)}:end=${range.to.toFixed(6)}`, "-fps_mode", "passthrough", "-enc_time_base", `${timeBase.num}:${timeBase.den}`],
    ...["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-lag-in-frames", "0", "-auto-alt-ref", "0"],
    ...["-crf", "24", "-b:v", "0", ...(profile0 ? ["-profile:v", "0", "-pix_fmt", "yuv420p"] : []), "-f", "ivf", ...OUTPUT_ARGS],
  ];
}

/**
 * Re-encodes the IVF AV1 video on pipe:3 like `vp9CutEncoderArgs`, with SVT-AV1 at its fastest preset (a 4K edge on two
 * cores): `main8`, 8-bit 4:2:0 in the Main profile to match a source's; else 10-bit 4:2:0, which holds any source's
 * pictures. Each source key frame carries its own sequence header, so the encoder's need not match it (decision 072).
 * SVT-AV1 never ends on an input with no frame in the range: callers encode only a range that holds one.
 */
export function av1CutEncoderArgs(range: { from: number; to: number }, timeBase: { num: number; den: number }, main8: boolean): string[] {
  return [
    ...BASE_ARGS,
    ...["-copyts", "-f", "ivf", "-i", "pipe:3", "-map", "0:v:0", "-an", "-sn", "-dn"],
    ...["-vf", `trim=start=${range.from.toFixed(6)}:end=${range.to.toFixed(6)}`, "-fps_mode", "passthrough", "-enc_time_base", `${timeBase.num}:${timeBase.den}`],
    // one core's worth of threads (lp=1): at 4K SVT-AV1 holds about 0.8 GB so, against 1.4 GB with a thread per core, no slower on a busy server
    ...["-c:v", "libsvtav1", "-preset", "12", "-crf", "30", "-svtav1-params", "lp=1", "-pix_fmt", main8 ? "yuv420p" : "yuv420p10le", "-f", "ivf", ...OUTPUT_ARGS],
  ];
}

/** How an exact clip's re-encoded pictures match the copied ones: the source's profile and level, and its frame reordering. */
export interface EdgeEncoding {
  profile: "baseline" | "main" | "high";
  /** level_idc, e.g. 40 for 4.0 */
  level: number;
  /** frames of reordering delay (B-frames): 0, 1 or 2 */
  delay: 0 | 1 | 2;
}

/** the SPS and PPS id of re-encoded pictures: one a source's own parameter sets practically never use */
export const EDGE_PARAMETER_SET_ID = 31;

/**
 * Re-encodes the MPEG-TS video on pipe:3 (its times kept), from `range.from` to before
 * `range.to` (seconds on that stream's clock), as H.264 in MPEG-TS; with `edge`, in the source's
 * profile and level, with its reordering delay and parameter sets of id EDGE_PARAMETER_SET_ID.
 */
export function smartCutEncoderArgs(range: { from: number; to: number }, edge: EdgeEncoding | null, frames?: number): string[] {
  const reorder = edge?.delay === 0 ? ["bframes=0"] : edge?.delay === 1 ? ["bframes=2", "b-pyramid=none"] : ["bframes=3", "b-pyramid=normal"];
  return [
    ...BASE_ARGS,
    ...["-copyts", "-f", "mpegts", "-i", "pipe:3", "-map", "0:v:0", "-an", "-sn", "-dn"],
    // the encoder keeps the 90 kHz clock: on a frame-rate clock, frames off its grid would move
    ...["-vf", `trim=start=${range.from.toFixed(6)}:end=${range.to.toFixed(6)}`, "-fps_mode", "passthrough", "-enc_time_base", "1:90000"],
    ...(frames ? ["-frames:v", String(frames)] : []),
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p"],
    ...(edge ? ["-profile:v", edge.profile, "-level", (edge.level / 10).toFixed(1), "-x264-params", [`sps-id=${EDGE_PARAMETER_SET_ID}`, ...reorder].join(":")] : []),
    ...TS_OUTPUT,
    ...OUTPUT_ARGS,
  ];
}

export interface FfmpegExit {
  code: number | null;
  signal: string | null;
  stderrTail: string;
}

export interface FfmpegRun {
  /** the process id (undefined when the spawn failed) */
  pid: number | undefined;
  /** ffmpeg's stdout; ends only after ffmpeg exited with 0, errors otherwise */
  output: Readable;
  /** the output pipes asked for in `opts.outputs` (fds 3 + inputs, …), ending or failing as `output` does */
  outputs: Readable[];
  exited: Promise<FfmpegExit>;
  /** idempotent: stops feeding inputs, SIGTERM, then SIGKILL after the grace period */
  shutdown(): void;
}

const STDERR_TAIL_BYTES = 8 * 1024;
/**
 * ffmpeg runs at a lower CPU priority than the server: when the CPUs are saturated by media
 * work, the event loop (health checks, pages, progress, the next spawn) still gets its share,
 * and ffmpeg keeps every cycle nobody else wants.
 */
export const FFMPEG_NICENESS = 10;

function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return; // spawn failed: the "error" event reports it
  try {
    // only ever lower: a server that already runs niced keeps its ffmpegs at least as low
    os.setPriority(pid, Math.max(os.getPriority(), FFMPEG_NICENESS));
  } catch (err) {
    // Refused (a platform without priorities, or ffmpeg already gone): it only costs fairness.
    void err;
  }
}
export const KILL_GRACE_MS = 2_000;

/**
 * Spawns ffmpeg with one extra pipe per input, and after those one per extra output (`outputs`,
 * each buffered up to its `highWaterMark` before ffmpeg is held: `pipe:${3 + inputs.length}`, …).
 * Backpressure holds on both sides: inputs are piped into ffmpeg's fds, and ffmpeg's stdout (and
 * extra outputs) into `output` (`outputs`). An input error or a non-zero exit destroys `output` with
 * `EngineError("download.failed")` (or the input's own EngineError), never ends it; an extra output
 * stopped short (shutdown) fails too, since another process may be reading it. An extra output its
 * consumer closes is drained to nowhere from then on: it never holds ffmpeg.
 */
export function runFfmpeg(
  tools: MediaTools,
  args: string[],
  inputs: Readable[],
  opts: { killGraceMs?: number; warm?: WarmPool | null; outputs?: readonly { highWaterMark: number }[] } = {},
): FfmpegRun {
  const grace = opts.killGraceMs ?? KILL_GRACE_MS;
  const extras = opts.outputs ?? [];
  const stdio: ("ignore" | "pipe")[] = ["ignore", "pipe", "pipe", ...inputs.map(() => "pipe" as const), ...extras.map(() => "pipe" as const)];
  // An ffmpeg started ahead with this command line (docs/decisions/029) waits on its input pipes
  // just as a new one would, without the start-up; the next run of the same kind gets one too.
  const warm = opts.warm === undefined ? processFfmpegs : opts.warm;
  const child = warm?.take(tools.ffmpeg, args, stdio) ?? spawn(tools.ffmpeg, args, { stdio });
  if (warm) child.once("close", () => warm.fillLater(tools.ffmpeg, args, stdio));
  lowerPriority(child.pid);
  const output = new PassThrough({ highWaterMark: 256 * 1024 });

  let stderrTail = "";
  let failure: Error | null = null;
  let stopping = false;
  let killTimer: NodeJS.Timeout | null = null;

  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
  });

  const fail = (err: Error) => {
    if (!failure) failure = err;
    shutdown();
  };

  inputs.forEach((input, i) => {
    const fd = child.stdio[3 + i] as Writable;
    // ffmpeg may close an input early (it has read enough, or it died): not our error, the exit
    // code tells. An input that fails is: a truncated source must fail the download.
    fd.on("error", () => {});
    input.on("error", (err) => fail(isEngineError(err) ? err : new EngineError("download.failed", { cause: err, detail: `input ${i}: ${err.message}` })));
    input.pipe(fd);
  });

  // Our ends of ffmpeg's pipes: an error there (rare: the pipe broke) fails the run like any other.
  const pipeFailed = (name: string) => (err: Error) => fail(new EngineError("download.failed", { cause: err, detail: `ffmpeg ${name}: ${err.message}` }));
  child.stdout!.on("error", pipeFailed("stdout"));
  child.stderr!.on("error", pipeFailed("stderr"));
  child.stdout!.pipe(output, { end: false });
  const outputs = extras.map(({ highWaterMark }, k) => {
    const fd = child.stdio[3 + inputs.length + k] as Readable;
    const extra = new PassThrough({ highWaterMark });
    fd.on("error", pipeFailed(`output ${k}`));
    fd.pipe(extra, { end: false });
    extra.once("close", () => {
      fd.unpipe(extra);
      fd.resume();
    });
    return extra;
  });

  const exited = new Promise<FfmpegExit>((resolve) => {
    child.on("error", (err) => {
      fail(new EngineError("download.failed", { cause: err, detail: `spawn ${tools.ffmpeg}: ${err.message}` }));
    });
    child.on("close", (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      for (const input of inputs) input.unpipe();
      for (const input of inputs) if (!input.destroyed) input.destroy();
      const exit: FfmpegExit = { code, signal, stderrTail };
      if (failure) {
        output.destroy(failure);
      } else if (code === 0 && !stopping) {
        output.end();
      } else if (stopping) {
        output.destroy();
      } else {
        failure = new EngineError("download.failed", { detail: `ffmpeg exited with ${code ?? signal}: ${stderrTail.trim().slice(-500)}` });
        output.destroy(failure);
      }
      for (const extra of outputs) {
        if (extra.destroyed) continue;
        if (code === 0 && !stopping && !failure) extra.end();
        else extra.destroy(failure ?? new EngineError("download.failed", { detail: "ffmpeg was stopped before its output ended" }));
      }
      resolve(exit);
    });
  });

  let shutDown = false;
  function shutdown(): void {
    if (shutDown) return;
    shutDown = true;
    stopping = true;
    for (const input of inputs) {
      input.unpipe();
      if (!input.destroyed) input.destroy();
    }
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      killTimer = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }, grace);
      killTimer.unref();
    }
  }

  // A consumer that stops reading (client gone) tears ffmpeg down.
  output.on("close", () => {
    if (child.exitCode === null && child.signalCode === null) shutdown();
  });

  return { pid: child.pid, output, outputs, exited, shutdown };
}
