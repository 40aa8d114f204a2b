import { execFileSync } from "node:child_process";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { imageDimensions, processCommentImage, sniffImageKind } from "./process-image.server.ts";

const ffmpegPath = "ffmpeg";

/** A real tiny image made by ffmpeg. */
function makeImage(codec: "png" | "mjpeg", size = "20x10"): Buffer {
  return execFileSync(ffmpegPath, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `testsrc=size=${size}:rate=1`, "-frames:v", "1", "-c:v", codec, "-f", "image2pipe", "pipe:1"]);
}

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

  it("scales very large images down", async () => {
    const out = await processCommentImage(makeImage("mjpeg", "2000x100"), { ffmpegPath });
    expect(out.ok && out.width).toBe(1600);
  });
});
