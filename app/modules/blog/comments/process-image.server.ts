import { spawn } from "node:child_process";
import { readImageHeader, type ImageKind } from "./image-header.ts";
import { MAX_COMMENT_IMAGE_BYTES, MAX_COMMENT_IMAGE_PIXELS } from "./messages.ts";
import { createWorkQueue, type WorkQueue } from "./work-queue.server.ts";

export { imageDimensions, readImageHeader, sniffImageKind, type ImageKind } from "./image-header.ts";

export type ImageRefusal =
  | { ok: false; reason: "too_large" | "not_an_image" | "busy" | "timeout" | "failed" }
  | { ok: false; reason: "too_many_pixels"; width: number; height: number };

export type ProcessedImage = { ok: true; contentType: "image/png" | "image/jpeg"; bytes: Buffer; width: number; height: number } | ImageRefusal;

const DEMUXER: Record<ImageKind, string> = { png: "png_pipe", jpeg: "jpeg_pipe", gif: "gif", webp: "webp_pipe", bmp: "bmp_pipe" };
/** Larger images are scaled down; stored comment images never need more. */
export const MAX_EDGE = 1600;
/** Decompression bombs: refused from the header before decoding (ffmpeg also enforces it). */
export const MAX_PIXELS = MAX_COMMENT_IMAGE_PIXELS;
export const IMAGE_TIMEOUT_MS = 15_000;
/**
 * Two decodes at a time and four waiting: a 24-megapixel image costs ffmpeg about 150 MB, so the
 * worst case stays well under a gigabyte however many uploads arrive together.
 */
export const IMAGE_CONCURRENCY = 2;
export const IMAGE_MAX_WAITING = 4;
/** One image at a time per client address: a visitor posts one comment at a time, a burst from one address never fills the line. */
export const IMAGE_PER_CLIENT = 1;
/** What a refused-because-busy upload is told to wait (Retry-After, seconds). */
export const IMAGE_RETRY_AFTER_SECONDS = 10;

const sharedQueue = createWorkQueue({ concurrency: IMAGE_CONCURRENCY, maxWaiting: IMAGE_MAX_WAITING, perClient: IMAGE_PER_CLIENT });

export interface ProcessImageDeps {
  ffmpegPath: string;
  /** the process-wide image queue unless a test passes its own */
  queue?: WorkQueue;
  /** whose share of the queue this image takes (the client's address) */
  client?: string;
  timeoutMs?: number;
}

/**
 * Check and re-encode a comment image: size limit, content sniffing, the pixel count from the
 * header, then a full decode and re-encode with ffmpeg through the bounded queue (JPEG stays
 * JPEG, everything else becomes PNG; first frame only). The re-encode drops every metadata block
 * (EXIF with GPS, comments, ICC) and anything appended.
 * FIXME: ffmpeg 5.1 ignores the EXIF orientation flag, so a phone photo stored sideways by the
 * camera shows sideways after the metadata is dropped.
 */
export async function processCommentImage(bytes: Uint8Array, deps: ProcessImageDeps): Promise<ProcessedImage> {
  if (bytes.byteLength > MAX_COMMENT_IMAGE_BYTES) return { ok: false, reason: "too_large" };
  const header = readImageHeader(bytes);
  if (!header) return { ok: false, reason: "not_an_image" };
  if (header.width * header.height > MAX_PIXELS) return { ok: false, reason: "too_many_pixels", width: header.width, height: header.height };

  const asJpeg = header.kind === "jpeg";
  const args = [
    "-hide_banner", "-loglevel", "error", "-nostdin",
    // one decoding thread: frame threads would each hold a full-size frame
    "-threads", "1",
    // a backstop for headers that lie; ffmpeg counts padded rows (6000 px wide becomes 6016), hence the headroom
    "-max_pixels", String(Math.ceil(MAX_PIXELS * 1.25)),
    "-f", DEMUXER[header.kind], "-i", "pipe:0",
    "-map", "0:v:0", "-frames:v", "1", "-map_metadata", "-1",
    "-vf", `scale='min(${MAX_EDGE},iw)':'min(${MAX_EDGE},ih)':force_original_aspect_ratio=decrease`,
    ...(asJpeg ? ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p"] : ["-c:v", "png"]),
    "-f", "image2pipe", "pipe:1",
  ];
  const queued = await (deps.queue ?? sharedQueue).run(() => runFfmpeg(deps.ffmpegPath, args, bytes, deps.timeoutMs ?? IMAGE_TIMEOUT_MS), deps.client);
  if (!queued.ok) return { ok: false, reason: "busy" };
  const result = queued.value;
  if (!result.ok) return { ok: false, reason: result.timedOut ? "timeout" : "failed" };
  const out = readImageHeader(result.stdout);
  if (!out) return { ok: false, reason: "failed" };
  return { ok: true, contentType: asJpeg ? "image/jpeg" : "image/png", bytes: result.stdout, width: out.width, height: out.height };
}

type FfmpegResult = { ok: true; stdout: Buffer } | { ok: false; timedOut: boolean; stderr: string };

function runFfmpeg(ffmpegPath: string, args: string[], input: Uint8Array, timeoutMs: number): Promise<FfmpegResult> {
  return new Promise((resolve) => {
    const child = spawn(ffmpegPath, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = "";
    let settled = false;
    let timedOut = false;
    const finish = (r: FfmpegResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (c: Buffer) => {
      outBytes += c.length;
      // a re-encoded image of at most MAX_EDGE² pixels stays far below this
      if (outBytes > 32 * 1024 * 1024) child.kill("SIGKILL");
      else out.push(c);
    });
    child.stderr.on("data", (c: Buffer) => {
      if (stderr.length < 4000) stderr += c.toString();
    });
    child.on("error", (err) => finish({ ok: false, timedOut: false, stderr: String(err) }));
    // resolve when the process is gone, not on the timer, so its queue slot is really free again
    child.on("exit", () => {
      if (timedOut) finish({ ok: false, timedOut, stderr });
    });
    child.on("close", (code) =>
      finish(code === 0 && !timedOut && out.length ? { ok: true, stdout: Buffer.concat(out) } : { ok: false, timedOut, stderr: stderr || `exit ${code}` }),
    );
    // ffmpeg may stop reading early (first frame only); a closed pipe is expected then
    child.stdin.on("error", () => {});
    child.stdin.end(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  });
}
