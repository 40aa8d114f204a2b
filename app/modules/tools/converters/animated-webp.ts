/**
 * Animated WebP from still WebP frames: the browser's own encoder (canvas `convertToBlob` with
 * type image/webp, libwebp inside the browser) compresses each frame; this file only writes the
 * RIFF container around them (VP8X, ANIM and one ANMF chunk per frame), as laid out in the WebP
 * container specification (RFC 9649). No image data is encoded or decoded here.
 */

export interface WebpFrame {
  /** a complete still WebP file, as the browser's encoder returns it */
  webp: Uint8Array;
  /** how long the frame stays on screen, in milliseconds (1 to 16 777 215) */
  durationMs: number;
}

interface Chunk {
  fourcc: string;
  /** the whole chunk: header, payload and padding byte */
  bytes: Uint8Array;
  payload: Uint8Array;
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

/** The chunks of a WebP file, in order; throws on anything that is not a well-formed WebP. */
export function webpChunks(file: Uint8Array): Chunk[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.length < 12 || ascii(file, 0) !== "RIFF" || ascii(file, 8) !== "WEBP") throw new Error("not a WebP file");
  const end = Math.min(file.length, 8 + view.getUint32(4, true));
  const chunks: Chunk[] = [];
  let at = 12;
  while (at + 8 <= end) {
    const size = view.getUint32(at + 4, true);
    const next = at + 8 + size + (size & 1);
    if (at + 8 + size > end) throw new Error("truncated WebP chunk");
    chunks.push({ fourcc: ascii(file, at), bytes: file.subarray(at, Math.min(next, end)), payload: file.subarray(at + 8, at + 8 + size) });
    at = next;
  }
  return chunks;
}

/** Width and height of a still frame, read from its VP8X, VP8 or VP8L header. */
export function webpSize(chunks: Chunk[]): { width: number; height: number } {
  for (const c of chunks) {
    const p = c.payload;
    if (c.fourcc === "VP8X" && p.length >= 10) return { width: 1 + uint24(p, 4), height: 1 + uint24(p, 7) };
    // lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height
    if (c.fourcc === "VP8 " && p.length >= 10) return { width: (p[6]! | (p[7]! << 8)) & 0x3fff, height: (p[8]! | (p[9]! << 8)) & 0x3fff };
    // lossless: signature 0x2f, then 14-bit width-1 and height-1
    if (c.fourcc === "VP8L" && p.length >= 5) {
      const bits = p[1]! | (p[2]! << 8) | (p[3]! << 16) | (p[4]! << 24);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
    }
  }
  throw new Error("WebP frame without image data");
}

function uint24(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

function putUint24(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value & 0xff;
  bytes[at + 1] = (value >> 8) & 0xff;
  bytes[at + 2] = (value >> 16) & 0xff;
}

function chunk(fourcc: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + payload.length + (payload.length & 1));
  for (let i = 0; i < 4; i++) out[i] = fourcc.charCodeAt(i);
  new DataView(out.buffer).setUint32(4, payload.length, true);
  out.set(payload, 8);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * One animated WebP that loops for ever, every frame drawn whole at (0, 0) over the previous
 * one without blending. All frames must have the canvas's size.
 */
export function animatedWebp(frames: WebpFrame[], canvas: { width: number; height: number }): Uint8Array {
  if (frames.length === 0) throw new Error("no frames");
  let alpha = false;
  const anmf = frames.map((frame, i) => {
    const chunks = webpChunks(frame.webp);
    const size = webpSize(chunks);
    if (size.width !== canvas.width || size.height !== canvas.height) throw new Error(`frame ${i} is ${size.width}x${size.height}, not ${canvas.width}x${canvas.height}`);
    // a frame's data is its optional ALPH chunk and its VP8 or VP8L chunk, copied as they are
    const data = chunks.filter((c) => c.fourcc === "ALPH" || c.fourcc === "VP8 " || c.fourcc === "VP8L");
    if (data.some((c) => c.fourcc === "ALPH" || c.fourcc === "VP8L")) alpha = true;
    const header = new Uint8Array(16);
    // X/2 and Y/2 stay 0
    putUint24(header, 6, canvas.width - 1);
    putUint24(header, 9, canvas.height - 1);
    putUint24(header, 12, Math.min(0xffffff, Math.max(1, Math.round(frame.durationMs))));
    // flags: bit 1 = do not blend, bit 0 = no disposal
    header[15] = 0b10;
    return chunk("ANMF", concat([header, ...data.map((c) => c.bytes)]));
  });
  const vp8x = new Uint8Array(10);
  // flags: animation (bit 1), alpha (bit 4)
  vp8x[0] = 0b10 | (alpha ? 0b1_0000 : 0);
  putUint24(vp8x, 4, canvas.width - 1);
  putUint24(vp8x, 7, canvas.height - 1);
  // background colour (BGRA, opaque white: a hint only) and loop count 0 (for ever)
  const anim = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0]);
  const body = concat([new TextEncoder().encode("WEBP"), chunk("VP8X", vp8x), chunk("ANIM", anim), ...anmf]);
  const riff = new Uint8Array(8);
  riff.set(new TextEncoder().encode("RIFF"));
  new DataView(riff.buffer).setUint32(4, body.length, true);
  return concat([riff, body]);
}

/** Frame durations in whole milliseconds that add up without drift (15 fps: 67, 66, 67, …). */
export function frameDurations(count: number, fps: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.round(((i + 1) * 1000) / fps) - Math.round((i * 1000) / fps));
}
