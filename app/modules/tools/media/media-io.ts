/**
 * Reading the visitor's media file in the browser with mediabunny (WebCodecs). The file is read
 * lazily, slice by slice, through a BlobSource: nothing is uploaded and a large file is never
 * loaded into memory whole. Runs inside the tools' worker (media.worker.ts), off the page's thread.
 */
import {
  ALL_FORMATS,
  BlobSource,
  BufferTarget,
  CanvasSink,
  Conversion,
  ConversionCanceledError,
  FlacOutputFormat,
  Input,
  MkvOutputFormat,
  MovOutputFormat,
  Mp3OutputFormat,
  Mp4OutputFormat,
  OggOutputFormat,
  Output,
  StreamTarget,
  UnsupportedInputFormatError,
  WavOutputFormat,
  WebMOutputFormat,
  AdtsOutputFormat,
  type ConversionOptions,
  type InputVideoTrack,
  type OutputFormat,
  type StreamTargetChunk,
} from "mediabunny";
import { MAX_OUTPUT_SOURCE_BYTES, TOO_LARGE_TO_WRITE, TOOL_ERROR_MESSAGES, ToolError } from "../shared/tool-errors.ts";
import { formatTime, sheetTimes } from "./media-format.ts";

export function assertWebCodecs(): void {
  if (typeof VideoDecoder === "undefined" || typeof AudioDecoder === "undefined") throw new ToolError("tool.no_webcodecs");
}

export function assertWritableSize(file: File): void {
  if (file.size > MAX_OUTPUT_SOURCE_BYTES) {
    throw new ToolError("tool.too_large", TOO_LARGE_TO_WRITE);
  }
}

/** Opens a file and reads its structure; a file that is not media or is damaged becomes a ToolError. */
export async function openMedia(file: File): Promise<Input> {
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
  try {
    await input.getFormat();
  } catch (e) {
    input.dispose();
    throw e instanceof UnsupportedInputFormatError ? new ToolError("tool.not_media") : new ToolError("tool.corrupt");
  }
  try {
    const tracks = await input.getTracks();
    // a known container without a single readable track: cut short or damaged (e.g. an MP4 whose index is missing)
    if (tracks.length === 0) throw new ToolError("tool.corrupt");
    await input.computeDuration();
  } catch (e) {
    input.dispose();
    throw e instanceof ToolError ? e : new ToolError("tool.corrupt");
  }
  return input;
}

export interface TrackInfo {
  number: number;
  type: "video" | "audio" | "subtitle";
  codec: string | null;
  codecString: string | null;
  language: string;
  name: string | null;
  bitrate: number | null;
  canDecode: boolean;
  width?: number;
  height?: number;
  rotation?: number;
  frameRate?: number;
  channels?: number;
  sampleRate?: number;
}

export interface MediaInfo {
  fileName: string;
  sizeBytes: number;
  container: string;
  mimeType: string;
  durationSeconds: number;
  overallBitrate: number | null;
  tracks: TrackInfo[];
  tags: [string, string][];
}

/** How many packets are sampled for frame rate and bitrate when the container does not say. */
const STATS_SAMPLE_PACKETS = 600;

export async function readMediaInfo(file: File): Promise<MediaInfo> {
  const input = await openMedia(file);
  try {
    const format = await input.getFormat();
    const durationSeconds = await input.computeDuration();
    const tracks: TrackInfo[] = [];
    for (const t of await input.getTracks()) {
      const base = {
        number: t.number,
        codec: t.codec,
        codecString: await t.getCodecParameterString().catch(() => null),
        language: t.languageCode,
        name: t.name,
        canDecode: await t.canDecode().catch(() => false),
      };
      const stats = await t.computePacketStats(STATS_SAMPLE_PACKETS).catch(() => null);
      const bitrate = (await t.getAverageBitrate().catch(() => null)) ?? stats?.averageBitrate ?? null;
      if (t.isVideoTrack()) {
        tracks.push({ ...base, type: "video", bitrate, width: t.displayWidth, height: t.displayHeight, rotation: t.rotation, frameRate: stats?.averagePacketRate });
      } else if (t.isAudioTrack()) {
        tracks.push({ ...base, type: "audio", bitrate, channels: t.numberOfChannels, sampleRate: t.sampleRate });
      } else {
        tracks.push({ ...base, type: "subtitle", bitrate: null });
      }
    }
    return {
      fileName: file.name,
      sizeBytes: file.size,
      container: format.name,
      mimeType: await input.getMimeType().catch(() => format.mimeType),
      durationSeconds,
      overallBitrate: durationSeconds > 0 ? (file.size * 8) / durationSeconds : null,
      tracks,
      tags: tagList(await input.getMetadataTags().catch(() => ({}))),
    };
  } finally {
    input.dispose();
  }
}

function tagList(tags: Awaited<ReturnType<Input["getMetadataTags"]>>): [string, string][] {
  const out: [string, string][] = [];
  const named: [string, unknown][] = [
    ["Title", tags.title],
    ["Artist", tags.artist],
    ["Album", tags.album],
    ["Album artist", tags.albumArtist],
    ["Genre", tags.genre],
    ["Date", tags.date instanceof Date ? tags.date.toISOString().slice(0, 10) : undefined],
    ["Track", tags.trackNumber],
    ["Comment", tags.comment],
    ["Description", tags.description],
  ];
  for (const [k, v] of named) if (v !== undefined && v !== "") out.push([k, String(v)]);
  // raw tags the normalised fields do not cover (encoder, creation time, custom keys)
  for (const [k, v] of Object.entries(tags.raw ?? {})) {
    if (typeof v === "string" && v && !out.some(([, value]) => value === v)) out.push([k, v]);
  }
  return out;
}

/** The output format for a cut that keeps the input's container. */
function sameContainer(mimeType: string): { format: OutputFormat; extension: string } {
  if (mimeType.includes("quicktime")) return { format: new MovOutputFormat({ fastStart: "in-memory" }), extension: "mov" };
  if (mimeType.includes("mp4")) return { format: new Mp4OutputFormat({ fastStart: "in-memory" }), extension: mimeType.startsWith("audio") ? "m4a" : "mp4" };
  if (mimeType.includes("webm")) return { format: new WebMOutputFormat(), extension: "webm" };
  if (mimeType.includes("matroska")) return { format: new MkvOutputFormat(), extension: "mkv" };
  if (mimeType.includes("mpeg") && mimeType.startsWith("audio")) return { format: new Mp3OutputFormat(), extension: "mp3" };
  if (mimeType.includes("wav")) return { format: new WavOutputFormat(), extension: "wav" };
  if (mimeType.includes("ogg")) return { format: new OggOutputFormat(), extension: "ogg" };
  if (mimeType.includes("flac")) return { format: new FlacOutputFormat(), extension: "flac" };
  if (mimeType.includes("aac")) return { format: new AdtsOutputFormat(), extension: "aac" };
  // MPEG-TS and anything else: MP4 holds the same codecs
  return { format: new Mp4OutputFormat({ fastStart: "in-memory" }), extension: "mp4" };
}

export interface RunOptions {
  onProgress?: (progress: number) => void;
  signal?: AbortSignal;
}

/** What a tool wrote: a file in memory for the page to save, or a file on the visitor's disk. */
export type Written = { kind: "blob"; blob: Blob } | { kind: "file"; name: string; size: number };

/** Size of the pieces a conversion writes to disk: memory stays near two of these, whatever the file's size. */
const DISK_CHUNK_BYTES = 8 * 1024 ** 2;

/**
 * A file the visitor picked (showSaveFilePicker), opened for writing. The browser writes to a
 * temporary copy and replaces the file only on `commit`; `discard` drops the copy, so a canceled
 * or failed conversion never leaves a half-written file that looks finished.
 */
export async function openDiskFile(handle: FileSystemFileHandle) {
  let file: FileSystemWritableFileStream;
  try {
    file = await handle.createWritable();
  } catch (e) {
    throw new ToolError("tool.save_failed", `${TOOL_ERROR_MESSAGES["tool.save_failed"]} (${e instanceof Error ? e.message : String(e)})`);
  }
  const writer = file.getWriter();
  return {
    writer,
    /** A stream for mediabunny's StreamTarget. mediabunny closes it when it finishes and also when it is canceled, so closing it only waits for the writes: `commit` decides. */
    stream: new WritableStream<StreamTargetChunk>({ write: (chunk) => writer.write(chunk), close: () => writer.ready }),
    async commit(): Promise<Written> {
      try {
        await writer.close();
      } catch (e) {
        throw new ToolError("tool.save_failed", `${TOOL_ERROR_MESSAGES["tool.save_failed"]} (${e instanceof Error ? e.message : String(e)})`);
      }
      return { kind: "file", name: handle.name, size: (await handle.getFile()).size };
    },
    async discard(): Promise<void> {
      await writer.abort().catch(() => undefined);
      await removeIfEmpty(handle);
    },
  };
}

/**
 * The save dialog creates an empty file; a conversion that failed or was canceled leaves it
 * empty (its writes were dropped), so it is removed (`remove()` exists in Chromium). A file that
 * already had content keeps it.
 */
export async function removeIfEmpty(handle: FileSystemFileHandle): Promise<void> {
  const left = await handle.getFile().catch(() => null);
  const removable = handle as FileSystemFileHandle & { remove?: () => Promise<void> };
  if (left?.size === 0) await removable.remove?.().catch(() => undefined);
}

/** Writes a finished in-memory result (an animated image) to the picked file, or returns it. */
export async function writeResult(blob: Blob, saveTo: FileSystemFileHandle | undefined): Promise<Written> {
  if (!saveTo) return { kind: "blob", blob };
  const disk = await openDiskFile(saveTo);
  try {
    await disk.writer.write(blob);
  } catch (e) {
    await disk.discard();
    throw new ToolError("tool.save_failed", `${TOOL_ERROR_MESSAGES["tool.save_failed"]} (${e instanceof Error ? e.message : String(e)})`);
  }
  return disk.commit();
}

/**
 * Runs a mediabunny conversion with progress, cancel and our error codes, into memory, or, given
 * a picked file, streamed into it piece by piece (nothing but the pieces in flight is in memory).
 */
export async function runConversion(
  options: Omit<ConversionOptions, "output"> & { format: OutputFormat },
  run: RunOptions,
  saveTo?: FileSystemFileHandle,
): Promise<Written> {
  const { format, ...rest } = options;
  const disk = saveTo ? await openDiskFile(saveTo) : null;
  try {
    const output = new Output({ format, target: disk ? new StreamTarget(disk.stream, { chunked: true, chunkSize: DISK_CHUNK_BYTES }) : new BufferTarget() });
    const conversion = await Conversion.init({ ...rest, output, showWarnings: false });
    // a stream the visitor expects must not vanish silently (e.g. the audio of a video); when it
    // was the only one, the conversion is invalid for the same reason: say which stream and why
    const lost = conversion.discardedTracks.find((d) => d.reason !== "discarded_by_user");
    if (!conversion.isValid && !lost) throw new ToolError("tool.failed");
    if (lost) {
      const what = `${lost.track.type} stream (${lost.track.codec ?? "unknown codec"})`;
      if (lost.reason === "undecodable_source_codec" || lost.reason === "unknown_source_codec")
        throw new ToolError("tool.cannot_decode", `This browser cannot decode the file's ${what}. Try a recent Chrome or Edge, or another file.`);
      if (lost.reason === "no_encodable_target_codec") throw new ToolError("tool.cannot_encode", `This browser cannot encode the ${what} into the chosen format. Pick another format.`);
      throw new ToolError("tool.failed", `${TOOL_ERROR_MESSAGES["tool.failed"]} (the ${what} could not be kept: ${lost.reason})`);
    }
    if (run.signal?.aborted) throw new ToolError("tool.canceled");
    const onAbort = () => void conversion.cancel();
    run.signal?.addEventListener("abort", onAbort, { once: true });
    if (run.onProgress) conversion.onProgress = (p) => run.onProgress?.(p);
    try {
      await conversion.execute();
    } catch (e) {
      if (e instanceof ConversionCanceledError || run.signal?.aborted) throw new ToolError("tool.canceled");
      if (e instanceof ToolError) throw e;
      // a failed write to disk is not a damaged input
      if (disk && e instanceof DOMException) throw new ToolError("tool.save_failed", `${TOOL_ERROR_MESSAGES["tool.save_failed"]} (${e.message})`);
      throw new ToolError("tool.corrupt");
    } finally {
      run.signal?.removeEventListener("abort", onAbort);
    }
    if (disk) return await disk.commit();
    const target = output.target as BufferTarget;
    return { kind: "blob", blob: new Blob([target.buffer!], { type: format.mimeType }) };
  } catch (e) {
    await disk?.discard();
    throw e;
  }
}

export interface TrimResult {
  blob: Blob;
  extension: string;
}

/**
 * Cuts [start, end) out of the file in its own container. Fast mode copies the encoded packets
 * (no re-encoding; the cut starts at the key frame at or before `start`); exact mode re-encodes.
 */
export async function trimMedia(file: File, start: number, end: number, exact: boolean, run: RunOptions = {}): Promise<TrimResult> {
  assertWritableSize(file);
  const input = await openMedia(file);
  try {
    const duration = await input.computeDuration();
    if (!(start >= 0 && end > start && start < duration)) throw new ToolError("tool.bad_time");
    const mime = await input.getMimeType().catch(async () => (await input.getFormat()).mimeType);
    const { format, extension } = sameContainer(mime);
    const written = await runConversion(
      {
        input,
        format,
        trim: { start, end: Math.min(end, duration) },
        copy: exact ? false : { mode: "preferred", boundaryPolicy: "expand" },
      },
      run,
    );
    if (written.kind !== "blob") throw new ToolError("tool.failed");
    return { blob: written.blob, extension };
  } finally {
    input.dispose();
  }
}

async function primaryVideo(input: Input): Promise<InputVideoTrack> {
  const track = await input.getPrimaryVideoTrack();
  if (!track) throw new ToolError("tool.no_video");
  if (!(await track.canDecode())) throw new ToolError("tool.cannot_decode");
  return track;
}

async function canvasToBlob(canvas: HTMLCanvasElement | OffscreenCanvas, type: string, quality?: number): Promise<Blob> {
  if ("convertToBlob" in canvas) return canvas.convertToBlob({ type, quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new ToolError("tool.failed"))), type, quality),
  );
}

export interface FrameResult {
  blob: Blob;
  /** the frame's own time (the frame shown at the requested time) */
  timestamp: number;
  width: number;
  height: number;
}

/** The frame on screen at `time`, as PNG or JPEG at the video's display size. */
export async function grabFrame(file: File, time: number, type: "image/png" | "image/jpeg"): Promise<FrameResult> {
  const input = await openMedia(file);
  try {
    const track = await primaryVideo(input);
    const duration = await input.computeDuration();
    if (!(time >= 0 && time <= duration)) throw new ToolError("tool.bad_frame_time");
    const sink = new CanvasSink(track, { poolSize: 1 });
    const first = await track.getFirstTimestamp();
    const frame = await sink.getCanvas(Math.max(time, first));
    if (!frame) throw new ToolError("tool.bad_frame_time");
    const blob = await canvasToBlob(frame.canvas, type, type === "image/jpeg" ? 0.92 : undefined);
    return { blob, timestamp: frame.timestamp, width: frame.canvas.width, height: frame.canvas.height };
  } finally {
    input.dispose();
  }
}

export interface SheetOptions {
  count: number;
  columns: number;
  /** width of one tile in pixels */
  tileWidth: number;
}

/** A JPEG contact sheet: `count` evenly spaced frames in a grid, each labelled with its time. */
export async function thumbnailSheet(file: File, opts: SheetOptions, run: RunOptions = {}): Promise<FrameResult> {
  const input = await openMedia(file);
  try {
    const track = await primaryVideo(input);
    const first = await track.getFirstTimestamp();
    const duration = (await track.computeDuration()) - first;
    const tileW = opts.tileWidth;
    const tileH = Math.round((tileW * track.displayHeight) / track.displayWidth / 2) * 2;
    const rows = Math.ceil(opts.count / opts.columns);
    const gap = 4;
    const sheet = new OffscreenCanvas(opts.columns * tileW + (opts.columns + 1) * gap, rows * tileH + (rows + 1) * gap);
    const ctx = sheet.getContext("2d")!;
    ctx.fillStyle = "#0f172a";
    ctx.fillRect(0, 0, sheet.width, sheet.height);
    const sink = new CanvasSink(track, { width: tileW, height: tileH, fit: "contain", poolSize: 2 });
    let i = 0;
    for await (const frame of sink.canvasesAtTimestamps(sheetTimes(duration, opts.count, first))) {
      if (run.signal?.aborted) throw new ToolError("tool.canceled");
      const x = gap + (i % opts.columns) * (tileW + gap);
      const y = gap + Math.floor(i / opts.columns) * (tileH + gap);
      if (frame) {
        ctx.drawImage(frame.canvas, x, y, tileW, tileH);
        const label = formatTime(frame.timestamp);
        ctx.font = "bold 14px system-ui, sans-serif";
        const w = ctx.measureText(label).width + 10;
        ctx.fillStyle = "rgba(15, 23, 42, 0.75)";
        ctx.fillRect(x + tileW - w - 4, y + tileH - 24, w, 20);
        ctx.fillStyle = "#ffffff";
        ctx.fillText(label, x + tileW - w + 1, y + tileH - 9);
      }
      i++;
      run.onProgress?.(i / opts.count);
    }
    const blob = await canvasToBlob(sheet, "image/jpeg", 0.9);
    return { blob, timestamp: first, width: sheet.width, height: sheet.height };
  } finally {
    input.dispose();
  }
}
