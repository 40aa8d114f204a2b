/**
 * What an uploaded image is and how many pixels it claims, read from its first bytes only, so a
 * tiny file that would decode to a huge bitmap (a decompression bomb) is refused before any
 * decoder allocates memory for it.
 */
export type ImageKind = "png" | "jpeg" | "gif" | "webp" | "bmp";

export interface ImageHeader {
  kind: ImageKind;
  width: number;
  height: number;
}

/**
 * What the file IS, from its first bytes (magic numbers), never from its name or the type the
 * browser claimed. SVG and anything else is not accepted: SVG can carry scripts.
 */
export function sniffImageKind(bytes: Uint8Array): ImageKind | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 3) === "PNG" && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 6 && ascii(b, 0, 4) === "GIF8" && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return "gif";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) return "bmp";
  return null;
}

/**
 * The kind and pixel size an image declares in its header, or null when the header is missing,
 * truncated or malformed (such a file is not decoded at all).
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const kind = sniffImageKind(bytes);
  if (!kind) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = SIZE_READERS[kind](bytes, view);
  if (!size || size.width <= 0 || size.height <= 0) return null;
  return { kind, ...size };
}

/** Pixel dimensions of any accepted image, from its header. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  const header = readImageHeader(bytes);
  return header ? { width: header.width, height: header.height } : null;
}

type Size = { width: number; height: number } | null;

const SIZE_READERS: Record<ImageKind, (b: Uint8Array, v: DataView) => Size> = {
  // IHDR must be the first chunk: length 13, then width and height as 32-bit big-endian
  png: (b, v) => (b.length >= 24 && v.getUint32(8) === 13 && ascii(b, 12, 4) === "IHDR" ? { width: v.getUint32(16), height: v.getUint32(20) } : null),
  jpeg: jpegSize,
  // logical screen size, 16-bit little-endian; ffmpeg decodes frames onto this canvas
  gif: (b, v) => (b.length >= 10 ? { width: v.getUint16(6, true), height: v.getUint16(8, true) } : null),
  webp: webpSize,
  bmp: (b, v) => {
    const headerSize = v.getUint32(14, true);
    // BITMAPCOREHEADER (OS/2) has 16-bit sizes; every later header has 32-bit ones, height negative when top-down
    if (headerSize === 12) return { width: v.getUint16(18, true), height: v.getUint16(20, true) };
    if (headerSize >= 40 && b.length >= 26) return { width: v.getInt32(18, true), height: Math.abs(v.getInt32(22, true)) };
    return null;
  },
};

/** Walk the marker segments up to the first start-of-frame (SOF0..SOF15 except DHT, JPG and DAC). */
function jpegSize(b: Uint8Array, v: DataView): Size {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    // 0xFF fill bytes may precede a marker
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    // markers without a length: TEM, RST0..7, SOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    // end of image or start of scan before any frame header: no size to be had
    if (marker === 0xd9 || marker === 0xda) return null;
    const len = v.getUint16(i + 2);
    if (len < 2) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > b.length) return null;
      // a height of 0 means "defined later" (DNL): too unusual to decode blind
      return { height: v.getUint16(i + 5), width: v.getUint16(i + 7) };
    }
    i += 2 + len;
  }
  return null;
}

/** RIFF/WEBP: the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, canvas size). */
function webpSize(b: Uint8Array, v: DataView): Size {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 ") {
    // frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height (2 scale bits each)
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (b[20] !== 0x2f) return null;
    const bits = v.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    const uint24 = (at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
    return { width: uint24(24) + 1, height: uint24(27) + 1 };
  }
  return null;
}

function ascii(b: Uint8Array, at: number, n: number): string {
  return String.fromCharCode(...b.subarray(at, at + n));
}
