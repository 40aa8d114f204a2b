import { spawn } from "node:child_process";
import { MAX_COMMENT_IMAGE_BYTES } from "./messages.ts";

export type ImageKind = "png" | "jpeg" | "gif" | "webp" | "bmp";

/**
 * What the file IS, from its first bytes (magic numbers), never from its name or the type the
 * browser claimed. SVG and anything else is not accepted: SVG can carry scripts.
 */
export function sniffImageKind(bytes: Uint8Array): ImageKind | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return "gif";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) return "bmp";
  return null;
}

function ascii(b: Uint8Array, at: number, n: number) {
  return String.fromCharCode(...b.subarray(at, at + n));
}

/** Pixel dimensions of a PNG or baseline/progressive JPEG (the formats we write). */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  const kind = sniffImageKind(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === "png" && bytes.length >= 24) return { width: view.getUint32(16), height: view.getUint32(20) };
  if (kind === "jpeg") {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1]!;
      const len = view.getUint16(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC)
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
      }
      i += 2 + len;
    }
  }
  return null;
}

export type ProcessedImage =
  | { ok: true; contentType: "image/png" | "image/jpeg"; bytes: Buffer; width: number; height: number }
  | { ok: false; reason: "too_large" | "not_an_image" | "rejected" };

const DEMUXER: Record<ImageKind, string> = { png: "png_pipe", jpeg: "jpeg_pipe", gif: "gif", webp: "webp_pipe", bmp: "bmp_pipe" };
/** Larger images are scaled down; stored comment images never need more. */
export const MAX_EDGE = 1600;
/** Decompression bombs: a small file that would decode to a huge bitmap is refused. */
export const MAX_PIXELS = 40_000_000;
const TIMEOUT_MS = 15_000;

/**
 * Check and re-encode a comment image: size limit, content sniffing, then a full decode and
 * re-encode with ffmpeg (JPEG stays JPEG, everything else becomes PNG; first frame only). The
 * re-encode drops every metadata block (EXIF with GPS, comments, ICC) and anything appended.
 * FIXME: ffmpeg 5.1 ignores the EXIF orientation flag, so a phone photo stored sideways by the
 * camera shows sideways after the metadata is dropped.
 */
export async function processCommentImage(bytes: Uint8Array, deps: { ffmpegPath: string }): Promise<ProcessedImage> {
  if (bytes.byteLength > MAX_COMMENT_IMAGE_BYTES) return { ok: false, reason: "too_large" };
  const kind = sniffImageKind(bytes);
  if (!kind) return { ok: false, reason: "not_an_image" };
  const asJpeg = kind === "jpeg";
  const args = [
    "-hide_banner", "-loglevel", "error", "-nostdin",
    "-max_pixels", String(MAX_PIXELS),
    "-f", DEMUXER[kind], "-i", "pipe:0",
    "-map", "0:v:0", "-frames:v", "1", "-map_metadata", "-1",
    "-vf", `scale='min(${MAX_EDGE},iw)':'min(${MAX_EDGE},ih)':force_original_aspect_ratio=decrease`,
    ...(asJpeg ? ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p"] : ["-c:v", "png"]),
    "-f", "image2pipe", "pipe:1",
  ];
  const result = await runFfmpeg(deps.ffmpegPath, args, bytes);
  if (!result.ok) return { ok: false, reason: /max_pixels|Picture size|too large/i.test(result.stderr) ? "rejected" : "not_an_image" };
  const dims = imageDimensions(result.stdout);
  if (!dims || dims.width === 0 || dims.height === 0) return { ok: false, reason: "not_an_image" };
  return { ok: true, contentType: asJpeg ? "image/jpeg" : "image/png", bytes: result.stdout, ...dims };
}

function runFfmpeg(ffmpegPath: string, args: string[], input: Uint8Array): Promise<{ ok: true; stdout: Buffer } | { ok: false; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(ffmpegPath, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = "";
    let settled = false;
    const finish = (r: { ok: true; stdout: Buffer } | { ok: false; stderr: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ ok: false, stderr: "timed out" });
    }, TIMEOUT_MS);
    child.stdout.on("data", (c: Buffer) => {
      outBytes += c.length;
      // a re-encoded image of at most MAX_EDGE² pixels stays far below this
      if (outBytes > 32 * 1024 * 1024) child.kill("SIGKILL");
      else out.push(c);
    });
    child.stderr.on("data", (c: Buffer) => {
      if (stderr.length < 4000) stderr += c.toString();
    });
    child.on("error", (err) => finish({ ok: false, stderr: String(err) }));
    child.on("close", (code) => finish(code === 0 && out.length ? { ok: true, stdout: Buffer.concat(out) } : { ok: false, stderr: stderr || `exit ${code}` }));
    // ffmpeg may stop reading early (first frame only); a closed pipe is expected then
    child.stdin.on("error", () => {});
    child.stdin.end(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  });
}
