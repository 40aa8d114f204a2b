/**
 * Split by chapter (issue 33 §2, docs/decisions/070): which pieces of a video become the files of
 * a chapter ZIP, what each is called and what it says about itself. Pure: the plans are made by
 * the one format planner (engine/serve/chapter-archive.ts), one clip per piece.
 */
import { EngineError } from "../../errors.ts";
import type { Chapter, FormatId } from "../../types.ts";
import { mergeSpans, type SkipSegment } from "../sponsorblock/segments.ts";

/** The formats with a timeline to split: every video and audio file; not a thumbnail, transcript or subtitles. */
const NO_TIMELINE = new Set<FormatId>(["thumbnail-hd", "transcript", "srt", "vtt"]);

/** What a split of a format without a timeline is told (the catalogue's sentence speaks of the video). */
export const SPLIT_FORMATS_ONLY = "Only video and audio files can be split by chapter (MP4, WEBM, MP3, M4A and AAC).";

/** `chapters.unavailable` for a thumbnail, transcript or subtitles: checked before anything is resolved. */
export function checkSplitFormat(format: FormatId): void {
  if (NO_TIMELINE.has(format)) throw new EngineError("chapters.unavailable", { message: SPLIT_FORMATS_ONLY, detail: `split of ${format}` });
}

/**
 * A piece shorter than this that is not a whole chapter (the range's edge, or SponsorBlock's cuts,
 * left only a sliver of it) is no file: a stream copy of it would be one group of pictures.
 */
export const MIN_PIECE_SECONDS = 0.5;

/** One file of the split: a chapter, or the part of it inside the asked range, on the source's timeline. */
export interface ChapterPiece {
  /** 1-based, in the archive's order */
  position: number;
  title: string;
  start: number;
  end: number;
}

/**
 * The pieces a split gives: the chapters the range `[start, end)` reaches (all of them without one),
 * each cut to the range; with SponsorBlock's cuts, a chapter they leave (almost) nothing of is left
 * out. `chapters.unavailable` when the video has none, or nothing is left.
 */
export function chapterPieces(chapters: readonly Chapter[] | undefined, range: { start?: number; end?: number } = {}, cuts: readonly SkipSegment[] = []): ChapterPiece[] {
  if (!chapters || chapters.length === 0) throw new EngineError("chapters.unavailable", { detail: "the video has no chapters" });
  const from = range.start ?? 0;
  const to = range.end ?? Infinity;
  const spans = mergeSpans(cuts);
  const pieces: ChapterPiece[] = [];
  for (const c of chapters) {
    const start = Math.max(c.start, from);
    const end = Math.min(c.end, to);
    const whole = c.end - c.start;
    const removed = spans.reduce((sum, s) => sum + Math.max(0, Math.min(end, s.end) - Math.max(start, s.start)), 0);
    const kept = end - start - removed;
    if (kept <= 0 || kept < Math.min(MIN_PIECE_SECONDS, whole)) continue;
    pieces.push({ position: pieces.length + 1, title: c.title, start, end });
  }
  if (pieces.length === 0) throw new EngineError("chapters.unavailable", { detail: "no chapter left inside the range" });
  return pieces;
}

/** "01 - Intro.mp3": the position padded to the count's digits (two at least), the chapter's title, the extension. */
export function pieceFileName(piece: ChapterPiece, total: number, extension: string): string {
  const number = String(piece.position).padStart(Math.max(2, String(total).length), "0");
  const title = piece.title.trim();
  return `${number}${title ? ` - ${title}` : ""}.${extension}`;
}

/** "Title (720p) - chapters.zip" from the name the whole file would have had ("Title (720p).mp4"). */
export function chapterArchiveName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return `${dot > 0 ? fileName.slice(0, dot) : fileName} - chapters.zip`;
}
