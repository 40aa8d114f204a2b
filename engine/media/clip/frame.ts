/**
 * One frame of a video as a small JPEG: the picker's preview of a clip's first frame (issue 33 §1,
 * docs/decisions/071). The clip machinery reads it (docs/decisions/061): of the lowest rendition
 * that still fills the preview, a direct stream is served to ffmpeg on loopback, where its demuxer
 * reads the index and then only the samples from the keyframe before `t`; a segmented one gives
 * the segments covering `t` through a pipe. ffmpeg decodes from that keyframe to `t` and writes one
 * frame; it never opens an outside URL.
 */
import type { Readable } from "node:stream";
import { formatClipTime, parseClipTime } from "#common/clip-time.ts";
import { EngineError } from "../../errors.ts";
import type { ResolvedMedia, UpstreamStream } from "../../types.ts";
import { frameArgs, runFfmpeg, type MediaTools } from "../ffmpeg.ts";
import { processSpawnGate, type SpawnGate } from "../spawn-gate.ts";
import { openClipInputs } from "./clip-inputs.ts";
import type { LoopbackRead } from "./loopback-input.ts";
import { clipInput } from "./plan-clip.ts";

/** The preview's width at most, in pixels; a narrower video keeps its own. */
export const FRAME_WIDTH = 320;
/** A JPEG of 320 px is tens of kilobytes: more than this is no preview. */
export const FRAME_MAX_BYTES = 1024 * 1024;
/** Past `t`, what a segmented input also covers: the frame shown at `t` may begin in the next segment. */
const FRAME_WINDOW_SECONDS = 0.25;

/** Codecs by how cheaply they decode (a frame of AV1 costs several of H.264). */
const CODEC_COST: Record<string, number> = { h264: 0, vp9: 1, vp8: 1, hevc: 2, av1: 3 };

/** Whether a rendition fills the preview without being scaled up (unknown sizes count as filling it). */
function fills(s: UpstreamStream): boolean {
  if (s.width !== undefined) return s.width >= FRAME_WIDTH;
  if (s.height !== undefined) return s.height >= (FRAME_WIDTH * 9) / 16;
  return true;
}

/**
 * The rendition a preview is read from: the smallest that fills it (fewest bytes to fetch and
 * decode), else the largest there is; at a size, the cheaper codec, then video alone (a muxed
 * stream's audio samples are fetched too), then a direct file. `clip.unavailable` for audio only.
 */
export function frameStream(media: ResolvedMedia): UpstreamStream {
  const pictures = media.streams.filter((s) => s.kind === "video" || s.kind === "progressive");
  if (pictures.length === 0) throw new EngineError("clip.unavailable", { message: "This video has no picture to preview.", detail: "no video stream" });
  const pixels = (s: UpstreamStream) => (s.width ?? 0) * (s.height ?? 0);
  const rank = (s: UpstreamStream) => [
    fills(s) ? 0 : 1,
    fills(s) ? pixels(s) : -pixels(s),
    CODEC_COST[s.vcodec ?? ""] ?? 2,
    s.kind === "video" ? 0 : 1,
    s.transport.type === "direct" ? 0 : 1,
  ];
  return [...pictures].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    const i = x.findIndex((v, k) => v !== y[k]);
    return i < 0 ? 0 : x[i]! - y[i]!;
  })[0]!;
}

/**
 * The time asked for, in seconds: a time as the API takes clip times (seconds or h:mm:ss,
 * `request.invalid` otherwise) inside the video (`clip.out_of_range` at or past its end,
 * `clip.unavailable` when its length is unknown).
 */
export function frameTime(media: ResolvedMedia, asked: string | number): number {
  const t = parseClipTime(asked);
  if (t === null) throw new EngineError("request.invalid", { message: '"t" must be a time in seconds or h:mm:ss.', detail: "frame time" });
  const duration = media.details.durationSeconds;
  if (!(duration > 0)) throw new EngineError("clip.unavailable", { detail: "the source's length is unknown" });
  if (t >= duration) {
    throw new EngineError("clip.out_of_range", { message: `The time must be within the video's length (${formatClipTime(duration)}).`, detail: `frame at ${t}s of ${duration}s` });
  }
  return t;
}

/** How a frame's input is read: as a clip's (run-plan.ts), from the engine's readers. */
export interface FrameRun {
  tools: MediaTools;
  /** a segmented input, read whole as a pipe */
  openPiped(stream: UpstreamStream): Promise<Readable>;
  /** one range of a direct input, aborted by `signal` */
  openRange(stream: UpstreamStream, range: { start: number; end?: number }, signal: AbortSignal): Promise<LoopbackRead>;
  /** aborted when the asker leaves or the frame takes too long: ffmpeg and every read stop */
  signal: AbortSignal;
  spawnGate?: SpawnGate;
  killGraceMs?: number;
}

/** The JPEG of the frame shown at `t` seconds (checked by frameTime), at most FRAME_WIDTH wide. */
export async function renderFrame(media: ResolvedMedia, t: number, run: FrameRun): Promise<Buffer> {
  const source = frameStream(media);
  const { stream, seek } = clipInput(source, t, Math.min(t + FRAME_WINDOW_SECONDS, media.details.durationSeconds));
  let failure: Error | null = null;
  let output: Readable | null = null;
  const inputs = await openClipInputs([stream], {
    openPiped: run.openPiped,
    openRange: run.openRange,
    signal: run.signal,
    onFailure: (err) => {
      failure ??= err;
      output?.destroy(err);
    },
  });
  let ffmpeg: ReturnType<typeof runFfmpeg> | null = null;
  try {
    await (run.spawnGate ?? processSpawnGate).turn(run.signal);
    if (failure) throw failure;
    ffmpeg = runFfmpeg(run.tools, frameArgs(seek + inputs.leads[0]!, inputs.urls[0] ?? null, FRAME_WIDTH), inputs.pipes, { killGraceMs: run.killGraceMs, warm: null });
    output = ffmpeg.output;
    const stop = ffmpeg.shutdown;
    run.signal.addEventListener("abort", stop, { once: true });
    try {
      const image = await readCapped(ffmpeg.output, FRAME_MAX_BYTES);
      if (image.length === 0) throw new EngineError("clip.out_of_range", { message: "There is no picture at that time.", detail: `no frame at ${t}s` });
      return image;
    } catch (err) {
      throw failure ?? (run.signal.aborted ? new EngineError("download.failed", { detail: "frame stopped", cause: run.signal.reason }) : err);
    } finally {
      run.signal.removeEventListener("abort", stop);
    }
  } finally {
    ffmpeg?.shutdown();
    for (const pipe of inputs.pipes) if (!pipe.destroyed) pipe.destroy();
    for (const loopback of inputs.loopbacks) loopback.close();
  }
}

/** A stream read whole, failing past `max` bytes. */
async function readCapped(stream: Readable, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > max) {
      stream.destroy();
      throw new EngineError("download.failed", { detail: `frame over ${max} bytes` });
    }
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

/**
 * Frames decoded at once in this process, and frames that may wait for one: a preview is cheap,
 * but each is an ffmpeg, and a visitor dragging a slider asks for many. Past both, `download.busy`
 * (503, Retry-After) rather than a queue that outgrows the machine.
 */
export interface FrameSlots {
  /** resolves with the slot's release once one is free; rejects when `signal` aborts first */
  take(signal: AbortSignal): Promise<() => void>;
}

export function createFrameSlots(running: number, waiting: number): FrameSlots {
  let active = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    // the slot goes straight to the next waiter
    if (next) next();
    else active--;
  };
  const once = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };
  return {
    async take(signal) {
      if (signal.aborted) throw new EngineError("download.failed", { detail: "frame left before it started", cause: signal.reason });
      if (active < running) {
        active++;
        return once();
      }
      if (queue.length >= waiting) throw new EngineError("download.busy", { retryAfter: 2, detail: "frame previews busy" });
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener("abort", leave);
          resolve();
        };
        const leave = () => {
          const i = queue.indexOf(grant);
          if (i >= 0) queue.splice(i, 1);
          reject(new EngineError("download.failed", { detail: "frame left while it waited", cause: signal.reason }));
        };
        queue.push(grant);
        signal.addEventListener("abort", leave, { once: true });
      });
      return once();
    },
  };
}
