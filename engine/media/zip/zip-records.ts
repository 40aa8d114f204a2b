/**
 * The ZIP records a streamed archive needs (PKWARE APPNOTE 6.3.x §4.3, Zip64 §4.5.3), as byte
 * encoders and their lengths. The writer and the size calculation both use the same length
 * functions, so the announced size and the bytes sent cannot drift apart.
 *
 * Every entry is stored (method 0) with general purpose bit 3 (CRC and sizes follow the data in
 * a data descriptor: they are unknown until the entry ends) and bit 11 (the name is UTF-8).
 */

/** a 32-bit field holding this value means "see the Zip64 field" (APPNOTE 4.4.8, 4.4.9, 4.4.16) */
export const MAX32 = 0xffff_ffff;
/** a 16-bit entry count holding this value means "see the Zip64 end record" (APPNOTE 4.4.21, 4.4.22) */
export const MAX16 = 0xffff;

const SIG_LOCAL = 0x04034b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_END = 0x06054b50;

const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const FLAGS = FLAG_DESCRIPTOR | FLAG_UTF8;
const METHOD_STORED = 0;
/** 2.0: data descriptors; 4.5: Zip64 (APPNOTE 4.4.3.2) */
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** made by a Unix host (upper byte 3) so extractors apply the mode in the external attributes */
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64;
/** a regular file, rw-r--r-- (Unix mode in the upper 16 bits) */
const EXTERNAL_ATTRIBUTES = (0o100644 << 16) >>> 0;
const ZIP64_EXTRA_ID = 0x0001;

const LOCAL_FIXED = 30;
const CENTRAL_FIXED = 46;
const END_LENGTH = 22;
const ZIP64_END_LENGTH = 56;
const ZIP64_LOCATOR_LENGTH = 20;
/** the local header's Zip64 field: id, length, original size, compressed size */
const LOCAL_ZIP64_EXTRA = 4 + 16;

/**
 * Whether an entry gets the Zip64 field in its local header and 8-byte sizes in its data
 * descriptor (APPNOTE 4.3.9.2: the descriptor's sizes are 8 bytes exactly when the local header
 * has the Zip64 field). Decided before the first byte: an entry of unknown size, or one known to
 * reach 4 GiB, is Zip64; an entry known to be smaller keeps the classic 16-byte descriptor.
 */
export function usesZip64Descriptor(declaredSize: number | undefined): boolean {
  return declaredSize === undefined || declaredSize >= MAX32;
}

export function localHeaderLength(nameLength: number, zip64: boolean): number {
  return LOCAL_FIXED + nameLength + (zip64 ? LOCAL_ZIP64_EXTRA : 0);
}

export function descriptorLength(zip64: boolean): number {
  return zip64 ? 24 : 16;
}

/** the central record's Zip64 field holds only the values that overflow their 32-bit field (APPNOTE 4.5.3) */
function centralZip64Fields(size: number, offset: number): number {
  return (size >= MAX32 ? 2 : 0) + (offset >= MAX32 ? 1 : 0);
}

export function centralRecordLength(nameLength: number, size: number, offset: number): number {
  const fields = centralZip64Fields(size, offset);
  return CENTRAL_FIXED + nameLength + (fields > 0 ? 4 + 8 * fields : 0);
}

function needsZip64End(entries: number, centralSize: number, centralOffset: number): boolean {
  return entries >= MAX16 || centralSize >= MAX32 || centralOffset >= MAX32;
}

export function endRecordsLength(entries: number, centralSize: number, centralOffset: number): number {
  return END_LENGTH + (needsZip64End(entries, centralSize, centralOffset) ? ZIP64_END_LENGTH + ZIP64_LOCATOR_LENGTH : 0);
}

export interface DosDateTime {
  time: number;
  date: number;
}

/**
 * MS-DOS date and time (APPNOTE 4.4.6), from the UTC fields: the format has no time zone, and
 * UTC keeps an archive the same whichever server built it. Clamped to what it can hold
 * (1980-01-01 to 2107-12-31); seconds are stored halved.
 */
export function dosDateTime(when: Date): DosDateTime {
  const t = when.getTime();
  if (!Number.isFinite(t) || when.getUTCFullYear() < 1980) return { time: 0, date: (1 << 5) | 1 };
  if (when.getUTCFullYear() > 2107) return { time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 };
  return {
    time: (when.getUTCHours() << 11) | (when.getUTCMinutes() << 5) | (when.getUTCSeconds() >> 1),
    date: ((when.getUTCFullYear() - 1980) << 9) | ((when.getUTCMonth() + 1) << 5) | when.getUTCDate(),
  };
}

export interface LocalHeader {
  name: Buffer;
  when: DosDateTime;
  zip64: boolean;
}

/** APPNOTE 4.3.7; CRC and sizes are zero (bit 3), or 0xFFFFFFFF pointing at a zeroed Zip64 field */
export function encodeLocalHeader({ name, when, zip64 }: LocalHeader): Buffer {
  const out = Buffer.alloc(localHeaderLength(name.length, zip64));
  out.writeUInt32LE(SIG_LOCAL, 0);
  out.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  out.writeUInt16LE(FLAGS, 6);
  out.writeUInt16LE(METHOD_STORED, 8);
  out.writeUInt16LE(when.time, 10);
  out.writeUInt16LE(when.date, 12);
  // CRC-32 at 14 stays 0
  if (zip64) {
    out.writeUInt32LE(MAX32, 18);
    out.writeUInt32LE(MAX32, 22);
  }
  out.writeUInt16LE(name.length, 26);
  out.writeUInt16LE(zip64 ? LOCAL_ZIP64_EXTRA : 0, 28);
  name.copy(out, LOCAL_FIXED);
  if (zip64) {
    const at = LOCAL_FIXED + name.length;
    out.writeUInt16LE(ZIP64_EXTRA_ID, at);
    out.writeUInt16LE(16, at + 2);
    // both sizes (8 bytes each) stay 0: they follow in the data descriptor
  }
  return out;
}

/** APPNOTE 4.3.9, with the optional signature (4.3.9.3) that streaming readers look for */
export function encodeDescriptor(crc: number, size: number, zip64: boolean): Buffer {
  const out = Buffer.alloc(descriptorLength(zip64));
  out.writeUInt32LE(SIG_DESCRIPTOR, 0);
  out.writeUInt32LE(crc, 4);
  if (zip64) {
    out.writeBigUInt64LE(BigInt(size), 8);
    out.writeBigUInt64LE(BigInt(size), 16);
  } else {
    out.writeUInt32LE(size, 8);
    out.writeUInt32LE(size, 12);
  }
  return out;
}

export interface CentralRecord {
  name: Buffer;
  when: DosDateTime;
  crc: number;
  size: number;
  /** where the entry's local header starts */
  offset: number;
  /** the local header had the Zip64 field */
  zip64Local: boolean;
}

/** APPNOTE 4.3.12, with a Zip64 field (4.5.3) when the size or the offset overflows 32 bits */
export function encodeCentralRecord(r: CentralRecord): Buffer {
  const fields = centralZip64Fields(r.size, r.offset);
  const out = Buffer.alloc(centralRecordLength(r.name.length, r.size, r.offset));
  const big = r.size >= MAX32;
  out.writeUInt32LE(SIG_CENTRAL, 0);
  out.writeUInt16LE(VERSION_MADE_BY, 4);
  out.writeUInt16LE(r.zip64Local || fields > 0 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
  out.writeUInt16LE(FLAGS, 8);
  out.writeUInt16LE(METHOD_STORED, 10);
  out.writeUInt16LE(r.when.time, 12);
  out.writeUInt16LE(r.when.date, 14);
  out.writeUInt32LE(r.crc, 16);
  out.writeUInt32LE(big ? MAX32 : r.size, 20);
  out.writeUInt32LE(big ? MAX32 : r.size, 24);
  out.writeUInt16LE(r.name.length, 28);
  out.writeUInt16LE(fields > 0 ? 4 + 8 * fields : 0, 30);
  // comment length (32), disk number start (34), internal attributes (36) stay 0
  out.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  out.writeUInt32LE(r.offset >= MAX32 ? MAX32 : r.offset, 42);
  r.name.copy(out, CENTRAL_FIXED);
  if (fields > 0) {
    let at = CENTRAL_FIXED + r.name.length;
    out.writeUInt16LE(ZIP64_EXTRA_ID, at);
    out.writeUInt16LE(8 * fields, at + 2);
    at += 4;
    // fixed order: original size, compressed size, local header offset
    if (big) {
      out.writeBigUInt64LE(BigInt(r.size), at);
      out.writeBigUInt64LE(BigInt(r.size), at + 8);
      at += 16;
    }
    if (r.offset >= MAX32) out.writeBigUInt64LE(BigInt(r.offset), at);
  }
  return out;
}

/**
 * The end of the archive: the Zip64 end record and its locator when the count, the central
 * directory's size or its offset overflows (APPNOTE 4.3.14, 4.3.15), then the classic end record
 * (4.3.16) with the overflowing fields set to all ones.
 */
export function encodeEndRecords(entries: number, centralSize: number, centralOffset: number): Buffer {
  const out = Buffer.alloc(endRecordsLength(entries, centralSize, centralOffset));
  let at = 0;
  if (needsZip64End(entries, centralSize, centralOffset)) {
    const zip64EndOffset = centralOffset + centralSize;
    out.writeUInt32LE(SIG_ZIP64_END, 0);
    out.writeBigUInt64LE(BigInt(ZIP64_END_LENGTH - 12), 4);
    out.writeUInt16LE(VERSION_MADE_BY, 12);
    out.writeUInt16LE(VERSION_ZIP64, 14);
    // this disk's number (16) and the central directory's disk (20) stay 0
    out.writeBigUInt64LE(BigInt(entries), 24);
    out.writeBigUInt64LE(BigInt(entries), 32);
    out.writeBigUInt64LE(BigInt(centralSize), 40);
    out.writeBigUInt64LE(BigInt(centralOffset), 48);
    at = ZIP64_END_LENGTH;
    out.writeUInt32LE(SIG_ZIP64_LOCATOR, at);
    // the Zip64 end record's disk (at + 4) stays 0
    out.writeBigUInt64LE(BigInt(zip64EndOffset), at + 8);
    out.writeUInt32LE(1, at + 16);
    at += ZIP64_LOCATOR_LENGTH;
  }
  out.writeUInt32LE(SIG_END, at);
  // this disk's number (at + 4) and the central directory's disk (at + 6) stay 0
  out.writeUInt16LE(Math.min(entries, MAX16), at + 8);
  out.writeUInt16LE(Math.min(entries, MAX16), at + 10);
  out.writeUInt32LE(Math.min(centralSize, MAX32), at + 12);
  out.writeUInt32LE(Math.min(centralOffset, MAX32), at + 16);
  // comment length (at + 20) stays 0
  return out;
}
