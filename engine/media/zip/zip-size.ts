/**
 * The exact byte length of the archive `createZipStream` writes, when every entry's size is known
 * before the first byte (so a response can carry Content-Length and an honest progress bar). It
 * walks the same names, Zip64 choices and record lengths as the writer; a test holds the two equal.
 */
import { EntryNames } from "./entry-names.ts";
import { centralRecordLength, descriptorLength, endRecordsLength, localHeaderLength, usesZip64Descriptor } from "./zip-records.ts";

export interface PlannedZipEntry {
  /** the name as passed to `addEntry` (made safe and unique the same way) */
  name: string;
  /** the entry's exact size, also passed to `addEntry` as `size` */
  size: number;
  /** passed to `addEntry` as `reserved` */
  reserved?: boolean;
}

/** `entries` in the order they will be added; `reservedNames` as given to `createZipStream` */
export function zipSize(entries: Iterable<PlannedZipEntry>, reservedNames: Iterable<string> = []): number {
  const names = new EntryNames(reservedNames);
  let offset = 0;
  let centralSize = 0;
  let count = 0;
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.size) || entry.size < 0) throw new RangeError(`A ZIP entry's size must be a whole number of bytes, not ${entry.size}.`);
    const nameLength = Buffer.byteLength(names.take(entry.name, { reserved: entry.reserved }));
    const zip64 = usesZip64Descriptor(entry.size);
    centralSize += centralRecordLength(nameLength, entry.size, offset);
    offset += localHeaderLength(nameLength, zip64) + entry.size + descriptorLength(zip64);
    count++;
  }
  return offset + centralSize + endRecordsLength(count, centralSize, offset);
}
