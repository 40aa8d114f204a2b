/**
 * The converter's engine: mediabunny (WebCodecs) for MP4, WEBM, MP3, M4A and WAV, the LAME
 * extension for MP3 where the browser has no MP3 encoder, gifenc for animated GIF frames, and
 * the browser's own WebP encoder for animated WebP frames (animated-webp.ts writes the container).
 * Everything runs in this tab; the file is read slice by slice and never sent anywhere.
 */
import { registerMp3Encoder } from "@mediabunny/mp3-encoder";
import { applyPalette, GIFEncoder, quantize } from "gifenc";
import {
  CanvasSink,
  Mp3OutputFormat,
  Mp4OutputFormat,
  Quality,
  QUALITY_HIGH,
  QUALITY_LOW,
  QUALITY_MEDIUM,
  WavOutputFormat,
  WebMOutputFormat,
  canEncodeAudio,
  canEncodeVideo,
  type AudioCodec,
  type ConversionAudioOptions,
  type ConversionVideoOptions,
  type OutputFormat,
} from "mediabunny";
import { ToolError } from "../shared/tool-errors.ts";
import { assertWebCodecs, assertWritableSize, openMedia, runConversion, writeResult, type RunOptions, type Written } from "../media/media-io.ts";
import { animatedWebp, frameDurations, type WebpFrame } from "./animated-webp.ts";
import { AUDIO_BITRATES, MAX_ANIMATION_SECONDS, WEBP_QUALITY, cannotEncodeMessage, outputSize, type HeightChoice, type QualityChoice, type TargetSpec } from "./convert-targets.ts";

export interface ConvertSettings {
  height: HeightChoice;
  quality: QualityChoice;
  /** seconds; both null = the whole file */
  start: number | null;
  end: number | null;
  gifFps: number;
  gifWidth: number;
}

/** How far copied streams may move in time to be copied instead of re-encoded (sync is kept). */
const COPY_SHIFT_TOLERANCE_SECONDS = 0.1;

const VIDEO_QUALITY = { low: QUALITY_LOW, medium: QUALITY_MEDIUM, high: QUALITY_HIGH } as const;

let mp3Registered = false;
async function ensureMp3Encoder(): Promise<void> {
  if (mp3Registered || (await canEncodeAudio("mp3"))) return;
  registerMp3Encoder();
  mp3Registered = true;
}

/**
 * Converts `file`. Without `saveTo` the result is made in memory (files up to 2 GB); with a file
 * the visitor picked, it is streamed into that file as it is made, so any size works.
 */
export async function convertMedia(file: File, target: TargetSpec, settings: ConvertSettings, run: RunOptions = {}, saveTo?: FileSystemFileHandle): Promise<Written> {
  assertWebCodecs();
  if (!saveTo) assertWritableSize(file);
  if (target.needsRange) return writeResult(await makeAnimation(file, target, settings, run), saveTo);
  const input = await openMedia(file);
  // MP4 on disk: the index goes at the end (written once, at the finish); in memory it goes first
  const fastStart = saveTo ? false : "in-memory";
  try {
    const duration = await input.computeDuration();
    const start = settings.start ?? 0;
    const end = settings.end ?? duration;
    if (!(start >= 0 && end > start && start < duration)) throw new ToolError("tool.bad_time");
    const audioTrack = await input.getPrimaryAudioTrack();
    const videoTrack = await input.getPrimaryVideoTrack();
    if (!target.video && !audioTrack) throw new ToolError("tool.no_audio");

    let format: OutputFormat;
    let videoCodec: "avc" | "vp9" | null = null;
    let audioCodec: AudioCodec;
    switch (target.id) {
      case "mp4":
        format = new Mp4OutputFormat({ fastStart });
        videoCodec = "avc";
        audioCodec = "aac";
        break;
      case "webm":
        format = new WebMOutputFormat();
        videoCodec = "vp9";
        audioCodec = "opus";
        break;
      case "mp3":
        await ensureMp3Encoder();
        format = new Mp3OutputFormat();
        audioCodec = "mp3";
        break;
      case "m4a":
        format = new Mp4OutputFormat({ fastStart });
        audioCodec = "aac";
        break;
      default:
        format = new WavOutputFormat();
        audioCodec = "pcm-s16";
    }

    // Say up front what this browser cannot encode, rather than failing half-way. A source
    // track already in the target codec is copied as is, so it needs no encoder.
    let video: ConversionVideoOptions = { discard: true };
    if (videoCodec && videoTrack) {
      const size = outputSize({ width: videoTrack.displayWidth, height: videoTrack.displayHeight }, settings.height);
      const resized = size.height !== videoTrack.displayHeight;
      const copyable = videoTrack.codec === videoCodec && !resized;
      if (!copyable && !(await canEncodeVideo(videoCodec, size))) throw new ToolError("tool.cannot_encode", cannotEncodeMessage(target));
      // both sides given: the encoder gets exactly the even size computed above
      // a quality setting makes mediabunny re-encode, so a copyable stream gets none
      video = {
        codec: videoCodec,
        ...(resized ? { width: size.width, height: size.height, fit: "fill" as const } : {}),
        ...(copyable ? {} : { quality: VIDEO_QUALITY[settings.quality] }),
      };
    }
    let audio: ConversionAudioOptions = { discard: true };
    if (audioTrack) {
      const copyable = audioTrack.codec === audioCodec && target.id !== "mp3";
      if (!copyable && !(await canEncodeAudio(audioCodec))) throw new ToolError("tool.cannot_encode", cannotEncodeMessage(target));
      audio = { codec: audioCodec, ...(copyable || audioCodec.startsWith("pcm") ? {} : { quality: new Quality({ bitrate: AUDIO_BITRATES[settings.quality] }) }) };
    }
    const whole = settings.start === null && settings.end === null;
    return await runConversion(
      {
        input,
        format,
        video,
        audio,
        ...(whole ? {} : { trim: { start, end: Math.min(end, duration) } }),
        // an AAC track starts a few ms early (encoder priming): allow that shift so it is copied
        // rather than re-encoded (and still works where the browser has no AAC encoder)
        copy: { mode: "preferred", shiftTolerance: COPY_SHIFT_TOLERANCE_SECONDS },
      },
      run,
      saveTo,
    );
  } finally {
    input.dispose();
  }
}

/**
 * An animated GIF or WebP of [start, end): frames sampled at the chosen rate. GIF: one palette
 * per frame (gifenc). WebP: each frame compressed by the browser's WebP encoder.
 */
async function makeAnimation(file: File, target: TargetSpec, settings: ConvertSettings, run: RunOptions): Promise<Blob> {
  const input = await openMedia(file);
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new ToolError("tool.no_video");
    if (!(await track.canDecode())) throw new ToolError("tool.cannot_decode");
    const first = await track.getFirstTimestamp();
    const duration = await input.computeDuration();
    const start = settings.start ?? first;
    const end = Math.min(settings.end ?? Math.min(duration, start + MAX_ANIMATION_SECONDS), duration);
    if (!(start >= 0 && end > start && start < duration)) throw new ToolError("tool.bad_time");
    if (end - start > MAX_ANIMATION_SECONDS) throw new ToolError("tool.bad_time", `An animated ${target.id === "gif" ? "GIF" : "WebP"} can be at most ${MAX_ANIMATION_SECONDS} seconds long. Choose a shorter range.`);
    const width = Math.min(settings.gifWidth, track.displayWidth);
    const height = Math.max(2, Math.round((width * track.displayHeight) / track.displayWidth));
    const count = Math.max(1, Math.round((end - start) * settings.gifFps));
    const times = Array.from({ length: count }, (_, i) => start + i / settings.gifFps);
    const durations = frameDurations(count, settings.gifFps);
    const sink = new CanvasSink(track, { width, height, fit: "fill", poolSize: 1 });
    const scratchCanvas = new OffscreenCanvas(width, height);
    const scratch = scratchCanvas.getContext("2d", { willReadFrequently: target.id === "gif" })!;
    const gif = target.id === "gif" ? GIFEncoder() : null;
    const webpFrames: WebpFrame[] = [];
    if (!gif && !(await canEncodeWebp())) throw new ToolError("tool.cannot_encode", cannotEncodeMessage(target));
    let i = 0;
    for await (const frame of sink.canvasesAtTimestamps(times)) {
      if (run.signal?.aborted) throw new ToolError("tool.canceled");
      if (frame) {
        scratch.drawImage(frame.canvas, 0, 0, width, height);
        if (gif) {
          const { data } = scratch.getImageData(0, 0, width, height);
          const palette = quantize(data, 256);
          gif.writeFrame(applyPalette(data, palette), width, height, { palette, delay: durations[i] });
        } else {
          const still = await scratchCanvas.convertToBlob({ type: "image/webp", quality: WEBP_QUALITY[settings.quality] });
          webpFrames.push({ webp: new Uint8Array(await still.arrayBuffer()), durationMs: durations[i]! });
        }
      } else if (webpFrames.length > 0) {
        // no frame at this time (past the last one): the previous frame stays on screen longer
        webpFrames[webpFrames.length - 1]!.durationMs += durations[i]!;
      }
      i++;
      run.onProgress?.(i / count);
      // the quantizer runs on this thread: let the page paint and take input between frames
      await new Promise((r) => setTimeout(r, 0));
    }
    if (gif) {
      gif.finish();
      return new Blob([gif.bytes().slice()], { type: "image/gif" });
    }
    if (webpFrames.length === 0) throw new ToolError("tool.bad_time");
    return new Blob([animatedWebp(webpFrames, { width, height }).slice()], { type: "image/webp" });
  } finally {
    input.dispose();
  }
}

/** Whether this browser's canvas encodes WebP (Safari answers with a PNG instead). */
async function canEncodeWebp(): Promise<boolean> {
  const canvas = new OffscreenCanvas(2, 2);
  // a canvas without a context cannot be encoded at all
  canvas.getContext("2d")!.fillRect(0, 0, 2, 2);
  const probe = await canvas.convertToBlob({ type: "image/webp" }).catch(() => null);
  return probe?.type === "image/webp";
}
