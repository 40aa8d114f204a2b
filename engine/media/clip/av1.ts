/**
 * Just enough AV1 to cut an AV1 stream at its key frames (docs/decisions/072, AV1 addendum): the
 * OBUs of a temporal unit (one IVF frame), the fields of a sequence header that say which pictures
 * it codes (profile, bit depth, chroma), and whether a temporal unit starts with a shown key frame.
 */

export const OBU_SEQUENCE_HEADER = 1;
const OBU_FRAME_HEADER = 3;
const OBU_FRAME = 6;

export interface Obu {
  type: number;
  /** the whole OBU, its header and size field included */
  bytes: Buffer;
  /** its payload */
  payload: Buffer;
}

/** The OBUs of a temporal unit (each with its size field, as IVF and ffmpeg carry them); null when they do not parse. */
export function obusOf(unit: Buffer): Obu[] | null {
  const obus: Obu[] = [];
  let at = 0;
  while (at < unit.length) {
    const header = unit[at]!;
    if (header & 0x80) return null; // obu_forbidden_bit
    const type = (header >> 3) & 0x0f;
    const extension = (header >> 2) & 1;
    if (!(header & 0x02)) return null; // no obu_has_size_field: only a unit's last OBU may lack it, and ffmpeg writes them all
    let p = at + 1 + extension;
    let size = 0;
    for (let i = 0; ; i++) {
      const b = unit[p++];
      if (b === undefined || i === 8) return null;
      size += (b & 0x7f) * 2 ** (7 * i);
      if (!(b & 0x80)) break;
    }
    if (p + size > unit.length) return null;
    obus.push({ type, bytes: unit.subarray(at, p + size), payload: unit.subarray(p, p + size) });
    at = p + size;
  }
  return obus;
}

/** What a sequence header says of the pictures: profile (0 Main, 1 High, 2 Professional), bit depth, monochrome, and whether frame headers are reduced. */
export interface Av1Sequence {
  profile: number;
  bitDepth: number;
  monochrome: boolean;
  reducedStillPictureHeader: boolean;
}

/** Reads bits, most significant first. */
class Bits {
  private at = 0;
  private readonly data: Buffer;
  constructor(data: Buffer) {
    this.data = data;
  }
  f(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++, this.at++) {
      const byte = this.data[this.at >> 3];
      if (byte === undefined) throw new Error("AV1 header cut short");
      v = v * 2 + ((byte >> (7 - (this.at & 7))) & 1);
    }
    return v;
  }
  uvlc(): number {
    let zeros = 0;
    while (this.f(1) === 0) zeros++;
    return zeros >= 32 ? 2 ** 32 - 1 : this.f(zeros) + 2 ** zeros - 1;
  }
}

/** The fields of a sequence header OBU's payload up to its colour configuration (AV1 spec 5.5). */
export function parseSequenceHeader(payload: Buffer): Av1Sequence | null {
  try {
    const b = new Bits(payload);
    const profile = b.f(3);
    b.f(1); // still_picture
    const reduced = b.f(1) === 1;
    let decoderModel = false;
    let bufferDelayBits = 0;
    if (reduced) b.f(5); // seq_level_idx[0]
    else {
      if (b.f(1)) {
        // timing_info
        b.f(32);
        b.f(32);
        if (b.f(1)) b.uvlc(); // equal_picture_interval
        decoderModel = b.f(1) === 1;
        if (decoderModel) {
          bufferDelayBits = b.f(5) + 1;
          b.f(32);
          b.f(5);
          b.f(5);
        }
      }
      const initialDisplayDelay = b.f(1) === 1;
      const points = b.f(5) + 1;
      for (let i = 0; i < points; i++) {
        b.f(12); // operating_point_idc
        if (b.f(5) > 7) b.f(1); // seq_level_idx, seq_tier
        if (decoderModel && b.f(1)) b.f(2 * bufferDelayBits + 1);
        if (initialDisplayDelay && b.f(1)) b.f(4);
      }
    }
    const widthBits = b.f(4) + 1;
    const heightBits = b.f(4) + 1;
    b.f(widthBits);
    b.f(heightBits);
    if (!reduced && b.f(1)) b.f(7); // frame_id_numbers_present_flag: delta and additional id lengths
    b.f(3); // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
    if (!reduced) {
      b.f(4); // interintra_compound, masked_compound, warped_motion, dual_filter
      const orderHint = b.f(1) === 1;
      if (orderHint) b.f(2); // jnt_comp, ref_frame_mvs
      const chooseScreenContent = b.f(1) === 1;
      const forceScreenContent = chooseScreenContent ? 2 : b.f(1);
      if (forceScreenContent > 0 && !b.f(1)) b.f(1); // seq_choose_integer_mv, seq_force_integer_mv
      if (orderHint) b.f(3);
    }
    b.f(3); // superres, cdef, restoration
    // color_config
    let bitDepth = b.f(1) ? 10 : 8;
    if (profile === 2 && bitDepth === 10) bitDepth = b.f(1) ? 12 : 10;
    const monochrome = profile === 1 ? false : b.f(1) === 1;
    return { profile, bitDepth, monochrome, reducedStillPictureHeader: reduced };
  } catch {
    return null;
  }
}

/**
 * Whether a temporal unit starts a new sequence of pictures: its first frame (OBU_FRAME or
 * OBU_FRAME_HEADER) is a key frame (frame_type 0) that is shown (show_frame) and not one shown again
 * (show_existing_frame). Such a frame resets every reference: nothing after it refers to anything
 * before it. `reduced` is the sequence header's reduced_still_picture_header (every frame a shown key frame).
 */
export function av1StartsWithKeyFrame(unit: Buffer, reduced: boolean): boolean {
  const frame = obusOf(unit)?.find((o) => o.type === OBU_FRAME || o.type === OBU_FRAME_HEADER);
  if (!frame) return false;
  if (reduced) return true;
  const first = frame.payload[0];
  if (first === undefined) return false;
  // show_existing_frame (1 bit), frame_type (2 bits), show_frame (1 bit)
  return (first & 0x80) === 0 && ((first >> 5) & 0x03) === 0 && (first & 0x10) !== 0;
}

/** The sequence header OBU a temporal unit carries, if any. */
export function sequenceHeaderOf(unit: Buffer): Obu | null {
  return obusOf(unit)?.find((o) => o.type === OBU_SEQUENCE_HEADER) ?? null;
}

/**
 * Tracks the sequence header across a stream's temporal units (a key frame needs the one in force
 * to read its frame header) and tells its key frames.
 */
export class Av1KeyFrames {
  /** the last sequence header OBU met, as it came */
  sequenceHeader: Obu | null = null;
  sequence: Av1Sequence | null = null;

  isKey(unit: Buffer): boolean {
    const header = sequenceHeaderOf(unit);
    if (header) {
      this.sequenceHeader = { ...header, bytes: Buffer.from(header.bytes), payload: Buffer.from(header.payload) };
      this.sequence = parseSequenceHeader(header.payload);
    }
    return this.sequence !== null && av1StartsWithKeyFrame(unit, this.sequence.reducedStillPictureHeader);
  }
}

/** `unit` with `header` (a sequence header OBU) after its temporal delimiter, unless it carries one already. */
export function withSequenceHeader(unit: Buffer, header: Buffer): Buffer {
  const obus = obusOf(unit);
  if (!obus || obus.some((o) => o.type === OBU_SEQUENCE_HEADER)) return unit;
  const lead = obus[0]?.type === 2 ? obus[0].bytes.length : 0; // OBU_TEMPORAL_DELIMITER
  return Buffer.concat([unit.subarray(0, lead), header, unit.subarray(lead)]);
}
