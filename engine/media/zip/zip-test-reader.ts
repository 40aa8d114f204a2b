/**
 * For tests only: reads a whole archive held in memory the way a strict extractor would (end
 * records, central directory, each local header and data descriptor) and throws on anything
 * inconsistent. The integration tests check the same archives with unzip, Python and 7-Zip.
 */
import { crc32 } from "node:zlib";

export interface ReadEntry {
  name: string;
  data: Buffer;
  crc: number;
  flags: number;
  dosTime: number;
  dosDate: number;
  /** the local header carried a Zip64 field (so the descriptor has 8-byte sizes) */
  zip64Local: boolean;
  offset: number;
}

export interface ReadArchive {
  entries: ReadEntry[];
  /** the archive ends with a Zip64 end record and locator */
  zip64End: boolean;
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`bad ZIP: ${what}`);
}

function zip64Values(extra: Buffer): bigint[] {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 1) {
      const values: bigint[] = [];
      for (let i = 0; i < length; i += 8) values.push(extra.readBigUInt64LE(at + 4 + i));
      return values;
    }
    at += 4 + length;
  }
  return [];
}

export function readZip(zip: Buffer): ReadArchive {
  const end = zip.length - 22;
  check(end >= 0 && zip.readUInt32LE(end) === 0x06054b50, "no end record at the end (no comment expected)");
  let count = zip.readUInt16LE(end + 10);
  let centralSize = zip.readUInt32LE(end + 12);
  let centralOffset = zip.readUInt32LE(end + 16);
  const zip64End = end >= 20 && zip.readUInt32LE(end - 20) === 0x07064b50;
  if (zip64End) {
    const recordAt = Number(zip.readBigUInt64LE(end - 20 + 8));
    check(zip.readUInt32LE(recordAt) === 0x06064b50, "locator does not point at the Zip64 end record");
    check(recordAt === end - 20 - 56, "Zip64 end record not right before its locator");
    check(zip.readBigUInt64LE(recordAt + 4) === 44n, "Zip64 end record length");
    count = Number(zip.readBigUInt64LE(recordAt + 32));
    centralSize = Number(zip.readBigUInt64LE(recordAt + 40));
    centralOffset = Number(zip.readBigUInt64LE(recordAt + 48));
    check(centralOffset + centralSize === recordAt, "central directory does not end at the Zip64 end record");
  } else {
    check(centralOffset + centralSize === end, "central directory does not end at the end record");
  }

  const entries: ReadEntry[] = [];
  let at = centralOffset;
  let expectedOffset = 0;
  for (let i = 0; i < count; i++) {
    check(zip.readUInt32LE(at) === 0x02014b50, `central record ${i} signature`);
    const flags = zip.readUInt16LE(at + 8);
    check(zip.readUInt16LE(at + 10) === 0, "stored");
    const dosTime = zip.readUInt16LE(at + 12);
    const dosDate = zip.readUInt16LE(at + 14);
    const crc = zip.readUInt32LE(at + 16);
    let size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    let offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength);
    const values = zip64Values(zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    if (size === 0xffffffff) {
      size = Number(values.shift());
      check(Number(values.shift()) === size, "Zip64 compressed size equals original size");
    }
    if (offset === 0xffffffff) offset = Number(values.shift());
    check(offset === expectedOffset, `entry ${i} starts where the previous ended`);
    at += 46 + nameLength + extraLength + commentLength;

    check(zip.readUInt32LE(offset) === 0x04034b50, `local header ${i} signature`);
    check(zip.readUInt16LE(offset + 6) === flags, "local flags equal central flags");
    const localNameLength = zip.readUInt16LE(offset + 26);
    const localExtraLength = zip.readUInt16LE(offset + 28);
    check(zip.subarray(offset + 30, offset + 30 + localNameLength).equals(name), "local name equals central name");
    const localExtra = zip.subarray(offset + 30 + localNameLength, offset + 30 + localNameLength + localExtraLength);
    const zip64Local = zip64Values(localExtra).length === 2;
    if (zip64Local) check(zip.readUInt32LE(offset + 18) === 0xffffffff && zip.readUInt32LE(offset + 22) === 0xffffffff, "local sizes point at Zip64");
    const dataAt = offset + 30 + localNameLength + localExtraLength;
    const data = zip.subarray(dataAt, dataAt + size);
    check(crc32(data) === crc, `entry ${i} CRC`);
    const descriptorAt = dataAt + size;
    check(zip.readUInt32LE(descriptorAt) === 0x08074b50, `entry ${i} descriptor signature`);
    check(zip.readUInt32LE(descriptorAt + 4) === crc, "descriptor CRC");
    if (zip64Local) {
      check(Number(zip.readBigUInt64LE(descriptorAt + 8)) === size && Number(zip.readBigUInt64LE(descriptorAt + 16)) === size, "Zip64 descriptor sizes");
      expectedOffset = descriptorAt + 24;
    } else {
      check(zip.readUInt32LE(descriptorAt + 8) === size && zip.readUInt32LE(descriptorAt + 12) === size, "descriptor sizes");
      expectedOffset = descriptorAt + 16;
    }
    entries.push({ name: name.toString("utf8"), data, crc, flags, dosTime, dosDate, zip64Local, offset });
  }
  check(expectedOffset === centralOffset, "the central directory follows the last entry");
  check(at === centralOffset + centralSize, "central directory size");
  return { entries, zip64End };
}
