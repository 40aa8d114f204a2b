/**
 * An ID3v2.4 tag, built in memory and sent ahead of ffmpeg's MP3 frames (docs/decisions/059):
 * ffmpeg's own MP3 muxer finishes a tag that holds a picture by seeking back, which a pipe cannot
 * do. v2.4 because its text frames are UTF-8 and its date frame (TDRC) takes a full date; it is
 * also what ffmpeg, yt-dlp and mutagen write by default, so our files read wherever theirs do.
 */
import type { Chapter } from "../../types.ts";
import type { CoverImage, TagFields } from "./tag-fields.ts";

/** 28 bits spread over 4 bytes, the top bit of each clear (ID3v2 "synchsafe" integer) */
export function syncSafe(n: number): Buffer {
  if (!Number.isInteger(n) || n < 0 || n >= 2 ** 28) throw new RangeError(`synchsafe integer out of range: ${n}`);
  return Buffer.from([(n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f]);
}

const UTF8 = 0x03;

function frame(id: string, body: Buffer): Buffer {
  // v2.4: the frame size is synchsafe too; no frame flags
  return Buffer.concat([Buffer.from(id, "latin1"), syncSafe(body.length), Buffer.from([0, 0]), body]);
}

function textFrame(id: string, text: string): Buffer {
  return frame(id, Buffer.concat([Buffer.from([UTF8]), Buffer.from(text, "utf8")]));
}

/** COMM: encoding, language, an empty short description, the text */
function commentFrame(text: string): Buffer {
  return frame("COMM", Buffer.concat([Buffer.from([UTF8]), Buffer.from("eng", "latin1"), Buffer.from([0]), Buffer.from(text, "utf8")]));
}

/** APIC: encoding, MIME type, picture type 3 (front cover), an empty description, the image */
function pictureFrame(cover: CoverImage): Buffer {
  return frame("APIC", Buffer.concat([Buffer.from([UTF8]), Buffer.from(cover.mimeType, "latin1"), Buffer.from([0, 0x03, 0]), cover.data]));
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/**
 * The ID3v2 Chapter Frame Addendum: a CTOC (top-level, ordered) listing every chapter, then one
 * CHAP per chapter (start and end in milliseconds, byte offsets "unused", its title as TIT2).
 * ffprobe, mutagen and podcast players read chapters from these. At most 255 (CTOC counts them in a byte).
 */
function chapterFrames(chapters: readonly Chapter[]): Buffer[] {
  const kept = chapters.slice(0, 255);
  const id = (i: number) => Buffer.from(`ch${i}\0`, "latin1");
  const toc = frame("CTOC", Buffer.concat([Buffer.from("toc\0", "latin1"), Buffer.from([0x03, kept.length]), ...kept.map((_, i) => id(i))]));
  const chaps = kept.map((c, i) =>
    frame(
      "CHAP",
      Buffer.concat([id(i), u32(Math.round(c.start * 1000)), u32(Math.round(c.end * 1000)), u32(0xffffffff), u32(0xffffffff), textFrame("TIT2", c.title)]),
    ),
  );
  return kept.length > 0 ? [toc, ...chaps] : [];
}

/** The bytes of one ID3v2.4 tag: header, then TIT2, TPE1, TALB, TRCK, TDRC, TLAN, COMM, APIC for the fields present, then the chapters. */
export function buildId3Tag(fields: TagFields, cover: CoverImage | null, chapters: readonly Chapter[] = []): Buffer {
  const frames: Buffer[] = [];
  if (fields.title) frames.push(textFrame("TIT2", fields.title));
  if (fields.artist) frames.push(textFrame("TPE1", fields.artist));
  if (fields.album) frames.push(textFrame("TALB", fields.album));
  // TRCK: "3/12", the track's number and the count
  if (fields.track) frames.push(textFrame("TRCK", `${fields.track.number}/${fields.track.total}`));
  if (fields.date) frames.push(textFrame("TDRC", fields.date));
  // TLAN: the language spoken, three letters of ISO 639-2 (an audio track chosen by language)
  if (fields.language) frames.push(textFrame("TLAN", fields.language));
  if (fields.comment) frames.push(commentFrame(fields.comment));
  if (cover) frames.push(pictureFrame(cover));
  frames.push(...chapterFrames(chapters));
  const body = Buffer.concat(frames);
  // "ID3", version 2.4.0, no flags (no unsynchronisation: v2.4 readers do not need it), the size
  return Buffer.concat([Buffer.from("ID3", "latin1"), Buffer.from([4, 0, 0]), syncSafe(body.length), body]);
}

/** The size an ID3 tag will have, for sizes shown before the download: the text exactly, a cover of `coverBytes`. */
export function id3TagBytes(fields: TagFields, coverBytes: number | null, coverMime = "image/jpeg", chapters: readonly Chapter[] = []): number {
  const text = buildId3Tag(fields, null, chapters).length;
  // APIC: frame header 10, encoding 1, MIME + NUL, picture type 1, empty description NUL
  return coverBytes === null ? text : text + 10 + 1 + coverMime.length + 1 + 1 + 1 + coverBytes;
}
