/**
 * iTunes-style MP4 tags (moov/udta/meta/ilst: ©nam, ©ART, ©day, ©cmt, desc, covr) written into
 * the head of an MP4 on its way through: ffmpeg writes the moov of a fragmented MP4 before the
 * first packet, so it cannot put an attached picture (covr) in it on a pipe (docs/decisions/059).
 * The head (everything up to the moov's end) is held in memory, rewritten with the tags, and
 * sent on; nothing after it moves except by the size the tags add, which the chunk offsets of an
 * unfragmented file (stco/co64) are corrected by, and which a fragmented file's moof-relative
 * offsets do not see.
 */
import type { Chapter } from "../../types.ts";
import type { CoverImage, TagFields } from "./tag-fields.ts";

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, body]);
}

/** version 0, flags 0 */
const FULL_BOX_ZERO = Buffer.alloc(4);

/** one ilst item: the item box holding a `data` box of a well-known type (1 = UTF-8, 13 = JPEG, 14 = PNG) */
function item(type: string, dataType: number, value: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(dataType, 0);
  // the 4 bytes after the type: the locale, 0 = default
  return box(type, box("data", head, value));
}

const text = (type: string, value: string) => item(type, 1, Buffer.from(value, "utf8"));

/** trkn's data (type 0, implicit): two reserved bytes, the number and the count as 16-bit integers, two reserved bytes */
function trackNumber(track: { number: number; total: number }): Buffer {
  const data = Buffer.alloc(8);
  data.writeUInt16BE(Math.min(track.number, 0xffff), 2);
  data.writeUInt16BE(Math.min(track.total, 0xffff), 4);
  return data;
}

/** `meta` (a full box) with the iTunes handler and the item list; the same layout ffmpeg and iTunes write. */
export function buildMp4Meta(fields: TagFields, cover: CoverImage | null): Buffer {
  const items: Buffer[] = [];
  if (fields.title) items.push(text("\u00a9nam", fields.title));
  if (fields.artist) items.push(text("\u00a9ART", fields.artist));
  if (fields.album) items.push(text("\u00a9alb", fields.album));
  if (fields.track) items.push(item("trkn", 0, trackNumber(fields.track)));
  if (fields.date) items.push(text("\u00a9day", fields.date));
  if (fields.comment) items.push(text("\u00a9cmt", fields.comment));
  if (fields.description) items.push(text("desc", fields.description));
  if (cover) items.push(item("covr", cover.mimeType === "image/png" ? 14 : 13, cover.data));
  // hdlr: pre_defined 0, handler "mdir", reserved ("appl" as iTunes writes it, 0, 0), empty name
  const hdlr = box("hdlr", FULL_BOX_ZERO, Buffer.alloc(4), Buffer.from("mdirappl", "latin1"), Buffer.alloc(9));
  return box("meta", FULL_BOX_ZERO, hdlr, box("ilst", ...items));
}

/**
 * Nero's chapter list (`moov/udta/chpl`), which ffmpeg, mutagen and most players read: version 1,
 * a reserved word, a count byte, then per chapter its start in 100 ns units and a title of at most
 * 255 bytes (ends are the next start, the last the file's end). At most 255 chapters.
 */
export function buildChpl(chapters: readonly Chapter[]): Buffer {
  const kept = chapters.slice(0, 255);
  const entries = kept.map((c) => {
    const title = utf8Prefix(c.title, 255);
    const head = Buffer.alloc(9);
    head.writeBigUInt64BE(BigInt(Math.round(c.start * 10_000_000)), 0);
    head.writeUInt8(title.length, 8);
    return Buffer.concat([head, title]);
  });
  return box("chpl", Buffer.from([1, 0, 0, 0]), Buffer.alloc(4), Buffer.from([kept.length]), ...entries);
}

/** the longest start of `text` in UTF-8 that fits `max` bytes without splitting a character */
function utf8Prefix(text: string, max: number): Buffer {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return bytes;
  let end = max;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** The size of the covr item a cover of `bytes` makes: item header 8, data header 8, type and locale 8. */
export const coverItemBytes = (bytes: number) => 24 + bytes;

/** The bytes the tags add to a file without a udta of its own: a cover of `coverBytes`, the text exactly. */
export function mp4TagBytes(fields: TagFields, coverBytes: number | null, chapters: readonly Chapter[] = []): number {
  const chpl = chapters.length > 0 ? buildChpl(chapters).length : 0;
  return 8 + buildMp4Meta(fields, null).length + chpl + (coverBytes === null ? 0 : coverItemBytes(coverBytes));
}

interface Box {
  type: string;
  start: number;
  /** where its children (or payload) begin */
  bodyStart: number;
  end: number;
}

/** The boxes laid side by side in `buf[from, to)`; null when one is cut off or malformed. */
function boxesIn(buf: Buffer, from: number, to: number): Box[] | null {
  const out: Box[] = [];
  let at = from;
  while (at < to) {
    if (to - at < 8) return null;
    let size = buf.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (to - at < 16) return null;
      const big = buf.readBigUInt64BE(at + 8);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) return null;
      size = Number(big);
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) return null;
    out.push({ type: buf.toString("latin1", at + 4, at + 8), start: at, bodyStart: at + header, end: at + size });
    at += size;
  }
  return out;
}

function child(buf: Buffer, parent: Box, type: string): Box | undefined {
  return boxesIn(buf, parent.bodyStart, parent.end)?.find((b) => b.type === type);
}

/** How far the head's top-level boxes are known: the moov's end, once it is whole. */
export type HeadScan =
  | { state: "more" }
  /** no tags can go in: the moov comes after the media (or is missing), or the file is not MP4 */
  | { state: "untaggable"; reason: string }
  /** the moov ends at `end`; a fragmented file's first fragment must be checked too (`fragmented`) */
  | { state: "moov"; moov: { start: number; end: number }; fragmented: boolean };

/** Reads the top-level box headers of a file's first bytes until the moov is whole. */
export function scanHead(buf: Buffer): HeadScan {
  let at = 0;
  while (at + 8 <= buf.length) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString("latin1", at + 4, at + 8);
    if (!/^[\x20-\x7e]{4}$/.test(type)) return { state: "untaggable", reason: "not an MP4 box" };
    if (size === 1) {
      if (at + 16 > buf.length) return { state: "more" };
      size = Number(buf.readBigUInt64BE(at + 8));
    }
    if (type === "mdat" || type === "moof") return { state: "untaggable", reason: `${type} before the moov` };
    if (size < 8) return { state: "untaggable", reason: `box ${type} of ${size} bytes` };
    if (type === "moov") {
      if (at + size > buf.length) return { state: "more" };
      const moov: Box = { type, start: at, bodyStart: at + 8, end: at + size };
      return { state: "moov", moov: { start: at, end: at + size }, fragmented: child(buf, moov, "mvex") !== undefined };
    }
    at += size;
  }
  return { state: "more" };
}

/** tfhd flag: the fragment's data offsets count from the file's start (an absolute position the tags would move) */
const BASE_DATA_OFFSET_PRESENT = 0x000001;

/**
 * For a fragmented file: whether its first fragment's offsets are relative (safe to move), judged
 * from the boxes after the moov; "more" until the first moof is whole.
 */
export function fragmentsRelative(buf: Buffer, moovEnd: number): boolean | "more" {
  let at = moovEnd;
  while (at + 8 <= buf.length) {
    const size = buf.readUInt32BE(at);
    const type = buf.toString("latin1", at + 4, at + 8);
    if (size < 8) return false;
    if (type === "mdat") return false;
    if (type === "moof") {
      if (at + size > buf.length) return "more";
      const moof: Box = { type, start: at, bodyStart: at + 8, end: at + size };
      const trafs = boxesIn(buf, moof.bodyStart, moof.end)?.filter((b) => b.type === "traf") ?? [];
      if (trafs.length === 0) return false;
      return trafs.every((traf) => {
        const tfhd = child(buf, traf, "tfhd");
        return tfhd !== undefined && tfhd.end - tfhd.bodyStart >= 4 && (buf.readUInt32BE(tfhd.bodyStart) & BASE_DATA_OFFSET_PRESENT) === 0;
      });
    }
    at += size;
  }
  return "more";
}

function withSize(b: Box, buf: Buffer, body: Buffer): Buffer {
  // a box header of the usual 8 bytes is rebuilt; the rare 64-bit size is too
  const headerLength = b.bodyStart - b.start;
  const header = Buffer.from(buf.subarray(b.start, b.bodyStart));
  if (headerLength === 16) {
    header.writeUInt32BE(1, 0);
    header.writeBigUInt64BE(BigInt(headerLength + body.length), 8);
  } else header.writeUInt32BE(headerLength + body.length, 0);
  return Buffer.concat([header, body]);
}

/** Moves every chunk offset (stco/co64) of an unfragmented file by `delta`; false when one would overflow. */
function shiftChunkOffsets(moov: Buffer, delta: number): boolean {
  const walk = (from: number, to: number): boolean => {
    const boxes = boxesIn(moov, from, to);
    if (!boxes) return false;
    for (const b of boxes) {
      if (b.type === "trak" || b.type === "mdia" || b.type === "minf" || b.type === "stbl") {
        if (!walk(b.bodyStart, b.end)) return false;
      } else if (b.type === "stco" || b.type === "co64") {
        const wide = b.type === "co64";
        const count = moov.readUInt32BE(b.bodyStart + 4);
        const first = b.bodyStart + 8;
        if (first + count * (wide ? 8 : 4) > b.end) return false;
        for (let i = 0; i < count; i++) {
          if (wide) {
            const at = first + i * 8;
            moov.writeBigUInt64BE(moov.readBigUInt64BE(at) + BigInt(delta), at);
          } else {
            const at = first + i * 4;
            const moved = moov.readUInt32BE(at) + delta;
            if (moved > 0xffffffff) return false;
            moov.writeUInt32BE(moved, at);
          }
        }
      }
    }
    return true;
  };
  return walk(8, moov.length);
}

/**
 * The moov with `meta` in its udta (the udta's own meta replaced: ffmpeg's holds only its
 * encoder's name), or null when the moov cannot be parsed or an offset would overflow.
 * `padBytes`: room kept for a cover that did not come (a free box of that size). `fixedSize`: the
 * file grows by exactly a new udta around `meta` (mp4TagBytes), whatever udta it had: the room of
 * a meta of its own that ours replaces is kept free, so the size announced before is the size sent.
 */
export function tagMoov(buf: Buffer, moovAt: { start: number; end: number }, meta: Buffer, padBytes = 0, fixedSize = false): Buffer | null {
  const free = (bytes: number) => box("free", Buffer.alloc(bytes - 8));
  // a cover promised but not fetched keeps its room as a free box, so the file's size stays the one announced
  const tags = padBytes >= 8 ? Buffer.concat([meta, free(padBytes)]) : meta;
  const moov: Box = { type: "moov", start: moovAt.start, bodyStart: moovAt.start + 8, end: moovAt.end };
  if (buf.readUInt32BE(moov.start) === 1) return null;
  const children = boxesIn(buf, moov.bodyStart, moov.end);
  if (!children) return null;
  const parts: Buffer[] = [];
  let placed = false;
  for (const c of children) {
    if (c.type !== "udta") {
      parts.push(buf.subarray(c.start, c.end));
      continue;
    }
    const inner = boxesIn(buf, c.bodyStart, c.end);
    if (!inner) return null;
    const kept = inner.filter((b) => b.type !== "meta").map((b) => buf.subarray(b.start, b.end));
    const replaced = inner.filter((b) => b.type === "meta").reduce((n, b) => n + b.end - b.start, 0);
    parts.push(withSize(c, buf, Buffer.concat([...kept, tags, ...(fixedSize && !placed ? [free(8 + replaced)] : [])])));
    placed = true;
  }
  if (!placed) parts.push(box("udta", tags));
  const out = withSize(moov, buf, Buffer.concat(parts));
  // an unfragmented file's chunk offsets point past the moov; a fragmented one's moov has none
  if (!shiftChunkOffsets(out, out.length - (moov.end - moov.start))) return null;
  return out;
}
