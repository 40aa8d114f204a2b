/**
 * Just enough IVF and VP9 to cut a VP9 stream at its keyframes and join encoded and copied parts
 * (docs/decisions/072, VP9 addendum): a 32-byte file header (the time base inside), then per frame
 * a 12-byte header (size and presentation time, little-endian) and the frame; whether a frame is a
 * keyframe is read from its VP9 uncompressed header.
 */

export const IVF_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 12;

export interface IvfHeader {
  /** the header's 32 bytes, as they came */
  bytes: Buffer;
  /** the times' unit: `num / den` seconds */
  timeBase: { num: number; den: number };
}

/** One frame as IVF carries it (a VP9 superframe stays one frame). */
export interface IvfFrame {
  pts: number;
  /** the frame's payload, without its IVF header */
  data: Buffer;
  /** a keyframe (VP9's, or an AV1 shown key frame): nothing after it refers to anything before it */
  key: boolean;
  bytes: number;
}

export function parseIvfHeader(bytes: Buffer): IvfHeader {
  if (bytes.length < IVF_HEADER_BYTES || bytes.toString("latin1", 0, 4) !== "DKIF") throw new Error("not an IVF stream");
  // rate (the denominator) then scale (the numerator), as ffmpeg writes and reads them
  return { bytes: Buffer.from(bytes.subarray(0, IVF_HEADER_BYTES)), timeBase: { den: bytes.readUInt32LE(16), num: bytes.readUInt32LE(20) } };
}

/** The bits of a VP9 frame's first byte: its profile, and whether it is a keyframe (not a frame shown again, frame_type 0). */
export function vp9FrameInfo(frame: Buffer): { profile: number; key: boolean } | null {
  const b = frame[0];
  if (b === undefined || b >> 6 !== 2) return null; // frame_marker
  const bit = (k: number) => (b >> (7 - k)) & 1;
  const profile = bit(2) | (bit(3) << 1);
  const at = profile === 3 ? 5 : 4; // profile 3 has a reserved bit
  if (bit(at) === 1) return { profile, key: false }; // show_existing_frame
  return { profile, key: bit(at + 1) === 0 };
}

/** Cuts a byte stream into its IVF header and frames. */
export class IvfReader {
  header: IvfHeader | null = null;
  private rest: Buffer = Buffer.alloc(0);

  private readonly keyOf: (frame: Buffer) => boolean;

  /** `keyOf` tells a keyframe (VP9's, unless told) */
  constructor(keyOf: (frame: Buffer) => boolean = (frame) => vp9FrameInfo(frame)?.key ?? false) {
    this.keyOf = keyOf;
  }

  push(chunk: Buffer): IvfFrame[] {
    let buf = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    if (!this.header) {
      if (buf.length < IVF_HEADER_BYTES) {
        this.rest = Buffer.from(buf);
        return [];
      }
      this.header = parseIvfHeader(buf);
      buf = buf.subarray(IVF_HEADER_BYTES);
    }
    const frames: IvfFrame[] = [];
    let at = 0;
    while (at + FRAME_HEADER_BYTES <= buf.length) {
      const size = buf.readUInt32LE(at);
      if (at + FRAME_HEADER_BYTES + size > buf.length) break;
      const data = Buffer.from(buf.subarray(at + FRAME_HEADER_BYTES, at + FRAME_HEADER_BYTES + size));
      frames.push({ pts: Number(buf.readBigInt64LE(at + 4)), data, key: this.keyOf(data), bytes: size });
      at += FRAME_HEADER_BYTES + size;
    }
    this.rest = Buffer.from(buf.subarray(at));
    return frames;
  }

  /** bytes left over at the end: a stream that ends mid-frame was cut short */
  get leftover(): number {
    return this.rest.length;
  }
}

/** One frame with its IVF frame header. */
export function ivfFrame(pts: number, data: Buffer): Buffer {
  const head = Buffer.alloc(FRAME_HEADER_BYTES);
  head.writeUInt32LE(data.length, 0);
  head.writeBigInt64LE(BigInt(pts), 4);
  return Buffer.concat([head, data]);
}
