import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blackPng, pngChunk } from "#tests/support/png.ts";
import { imageRefusalMessage } from "./comments.server.ts";
import { messageText } from "./messages.ts";
import { imageDimensions, processCommentImage, readImageHeader, sniffImageKind } from "./process-image.server.ts";
import { createWorkQueue } from "./work-queue.server.ts";

const ffmpegPath = "ffmpeg";

/** A real tiny image made by ffmpeg. */
function makeImage(codec: "png" | "mjpeg" | "gif" | "bmp" | "libwebp", size = "20x10", extra: string[] = []): Buffer {
  return execFileSync(ffmpegPath, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `testsrc=size=${size}:rate=1`, "-frames:v", "1", "-c:v", codec, ...extra, "-f", "image2pipe", "pipe:1"]);
}

/**
 * Stand-ins for ffmpeg, as real processes: each logs when it starts and ends (to measure how
 * many run at once), then hangs, fails or hands over to the real ffmpeg.
 */
let scripts: string;
const script = (name: string) => path.join(scripts, name);
const logOf = (name: string) => {
  try {
    return readFileSync(script(`${name}.log`), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};
beforeAll(() => {
  scripts = mkdtempSync(path.join(tmpdir(), "vf-ffmpeg-"));
  const write = (name: string, body: string) => {
    writeFileSync(script(name), `#!/bin/sh\n${body}\n`);
    chmodSync(script(name), 0o755);
  };
  write("recording-ffmpeg", `echo start >> "${script("recording-ffmpeg.log")}"\nexec ffmpeg "$@"`);
  write("slow-ffmpeg", `echo start >> "${script("slow-ffmpeg.log")}"\nsleep 0.4\necho end >> "${script("slow-ffmpeg.log")}"\nexec ffmpeg "$@"`);
  write("hanging-ffmpeg", "exec sleep 30");
  write("failing-ffmpeg", "echo 'decoder error' >&2\nexit 1");
});
afterAll(() => rmSync(scripts, { recursive: true, force: true }));

/** PNG with a tEXt chunk carrying a fake GPS note right after IHDR. */
function pngWithText(png: Buffer, text: string): Buffer {
  const data = Buffer.from(`Comment\0${text}`, "latin1");
  const type = Buffer.from("tEXt", "latin1");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  const ihdrEnd = 8 + 4 + 4 + 13 + 4;
  return Buffer.concat([png.subarray(0, ihdrEnd), len, type, data, crc, png.subarray(ihdrEnd)]);
}

/** JPEG with a COM segment after SOI. */
function jpegWithComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, "latin1");
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xfffe, 0);
  seg.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), seg, body, jpeg.subarray(2)]);
}

describe("comment image checks", () => {
  it("recognises images by content, not by name", () => {
    expect(sniffImageKind(makeImage("png"))).toBe("png");
    expect(sniffImageKind(makeImage("mjpeg"))).toBe("jpeg");
    expect(sniffImageKind(Buffer.from("GIF89a\x01\x00\x01\x00", "latin1"))).toBe("gif");
    expect(sniffImageKind(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"))).toBeNull();
    expect(sniffImageKind(Buffer.from("just some text pretending to be a .png"))).toBeNull();
  });

  it("re-encodes a PNG and drops its metadata", async () => {
    const input = pngWithText(makeImage("png"), "GPS 51.5007,-0.1246 secret-location");
    expect(input.includes("secret-location")).toBe(true);
    const out = await processCommentImage(input, { ffmpegPath });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.contentType).toBe("image/png");
    expect(out.bytes.includes("secret-location")).toBe(false);
    expect({ width: out.width, height: out.height }).toEqual({ width: 20, height: 10 });
  });

  it("re-encodes a JPEG as JPEG and drops its comment block", async () => {
    const input = jpegWithComment(makeImage("mjpeg", "33x17"), "camera-serial-12345");
    const out = await processCommentImage(input, { ffmpegPath });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.contentType).toBe("image/jpeg");
    expect(out.bytes.includes("camera-serial-12345")).toBe(false);
    expect(imageDimensions(out.bytes)).toEqual({ width: 33, height: 17 });
  });

  it("refuses a fake image (text with an image name) as not an image", async () => {
    expect(await processCommentImage(Buffer.from("hello, I am not a picture"), { ffmpegPath })).toEqual({ ok: false, reason: "not_an_image" });
  });

  it("refuses a file with PNG magic bytes but garbage inside", async () => {
    const fake = Buffer.concat([makeImage("png").subarray(0, 8), Buffer.from("garbage".repeat(50))]);
    expect(await processCommentImage(fake, { ffmpegPath })).toEqual({ ok: false, reason: "not_an_image" });
  });

  it("refuses anything over 2 MB before looking at it", async () => {
    const big = Buffer.alloc(2 * 1024 * 1024 + 1);
    makeImage("png").copy(big);
    expect(await processCommentImage(big, { ffmpegPath })).toEqual({ ok: false, reason: "too_large" });
  });

  it("reads the pixel size from the header of every accepted format", () => {
    expect(readImageHeader(makeImage("png", "37x21"))).toEqual({ kind: "png", width: 37, height: 21 });
    expect(readImageHeader(makeImage("mjpeg", "37x21"))).toEqual({ kind: "jpeg", width: 37, height: 21 });
    expect(readImageHeader(makeImage("gif", "37x21", ["-pix_fmt", "rgb8"]))).toEqual({ kind: "gif", width: 37, height: 21 });
    expect(readImageHeader(makeImage("bmp", "37x21"))).toEqual({ kind: "bmp", width: 37, height: 21 });
    expect(readImageHeader(makeImage("libwebp", "37x21", ["-lossless", "0", "-f", "webp"]))).toEqual({ kind: "webp", width: 37, height: 21 });
    expect(readImageHeader(makeImage("libwebp", "37x21", ["-lossless", "1", "-f", "webp"]))).toEqual({ kind: "webp", width: 37, height: 21 });
    // VP8X (extended): canvas size minus one, 24-bit little-endian
    const vp8x = Buffer.alloc(30);
    vp8x.write("RIFF", 0, "latin1");
    vp8x.write("WEBPVP8X", 8, "latin1");
    vp8x.writeUInt32LE(10, 16);
    vp8x.writeUIntLE(5999, 24, 3);
    vp8x.writeUIntLE(5999, 27, 3);
    expect(readImageHeader(vp8x)).toEqual({ kind: "webp", width: 6000, height: 6000 });
    expect(readImageHeader(blackPng(6000, 6000))).toEqual({ kind: "png", width: 6000, height: 6000 });
    // magic bytes without a readable header
    expect(readImageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });

  it("refuses a small file that claims 6000×6000 pixels without running ffmpeg, and says why", async () => {
    const bomb = blackPng(6000, 6000);
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    const out = await processCommentImage(bomb, { ffmpegPath: script("recording-ffmpeg") });
    expect(out).toEqual({ ok: false, reason: "too_many_pixels", width: 6000, height: 6000 });
    expect(logOf("recording-ffmpeg")).toEqual([]);
    if (out.ok) return;
    expect(messageText(imageRefusalMessage(out))).toBe("Image too large: This image is too large (6000×6000). Please use an image of at most 24 megapixels.");
    // a 6000×4000 camera photo is within the limit (and the recorder shows ffmpeg did run for it)
    const photo = await processCommentImage(blackPng(6000, 4000), { ffmpegPath: script("recording-ffmpeg") });
    expect(photo.ok && { width: photo.width, height: photo.height }).toEqual({ width: 1600, height: 1067 });
    expect(logOf("recording-ffmpeg")).toEqual(["start"]);
  });

  it("never runs more ffmpeg processes than the queue allows, and refuses the overflow as busy", async () => {
    const queue = createWorkQueue({ concurrency: 2, maxWaiting: 1 });
    const png = makeImage("png");
    const results = await Promise.all(Array.from({ length: 6 }, () => processCommentImage(png, { ffmpegPath: script("slow-ffmpeg"), queue })));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toEqual(Array.from({ length: 3 }, () => ({ ok: false, reason: "busy" })));
    expect(messageText(imageRefusalMessage(refused[0] as { ok: false; reason: "busy" }))).toBe("Server busy: The server is busy processing images. Please try again in a moment.");
    // replay the start/end log: how many ran at the same time
    let running = 0;
    let most = 0;
    for (const line of logOf("slow-ffmpeg")) {
      running += line === "start" ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(logOf("slow-ffmpeg").filter((l) => l === "start")).toHaveLength(3);
    expect(most).toBe(2);
    expect(queue.active).toBe(0);
  });

  it("says when processing took too long, and frees the slot", async () => {
    const queue = createWorkQueue({ concurrency: 1, maxWaiting: 0 });
    const started = Date.now();
    const out = await processCommentImage(makeImage("png"), { ffmpegPath: script("hanging-ffmpeg"), queue, timeoutMs: 300 });
    expect(out).toEqual({ ok: false, reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(5000);
    if (!out.ok) expect(messageText(imageRefusalMessage(out))).toBe("Image not processed: Processing this image took too long. Please try a smaller or simpler image.");
    expect(queue.active).toBe(0);
  });

  it("says the image could not be processed when the decoder fails, not that it is the wrong type", async () => {
    const failed = await processCommentImage(makeImage("png"), { ffmpegPath: script("failing-ffmpeg") });
    expect(failed).toEqual({ ok: false, reason: "failed" });
    // a PNG whose header is fine but whose pixel data is damaged, with the real ffmpeg
    const good = blackPng(64, 64);
    const damaged = Buffer.concat([good.subarray(0, 33), pngChunk("IDAT", Buffer.from("definitely not deflate data")), pngChunk("IEND", Buffer.alloc(0))]);
    const out = await processCommentImage(damaged, { ffmpegPath });
    expect(out).toEqual({ ok: false, reason: "failed" });
    if (!out.ok) expect(messageText(imageRefusalMessage(out))).toBe("Image not processed: We couldn't process this image. It may be damaged or saved in an unusual way. Please try another image.");
  });

  it("scales very large images down", async () => {
    const out = await processCommentImage(makeImage("mjpeg", "2000x100"), { ffmpegPath });
    expect(out.ok && out.width).toBe(1600);
  });
});
