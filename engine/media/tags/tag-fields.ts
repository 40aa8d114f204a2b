/**
 * What a tagged file says about itself (issue 33 §3): title, artist (the channel or uploader),
 * date, the source link as a comment, a description (MP4 video), and the cover image.
 */
import type { FileTags, FormatId, ResolvedMedia, TagFields, Thumbnail } from "../../types.ts";

export type { FileTags, TagFields } from "../../types.ts";
/** Which container a format's tags are written into. */
export type TagStyle = FileTags["style"];

export interface CoverImage {
  mimeType: "image/jpeg" | "image/png";
  data: Buffer;
}

/** The most a cover may weigh: a larger thumbnail leaves the file without one (its frame sits in memory). */
export const MAX_COVER_BYTES = 2 * 1024 * 1024;

const AUDIO_STYLE: Partial<Record<FormatId, TagStyle>> = { "mp3-320": "id3", "mp3-256": "id3", "mp3-128": "id3", "aac-256": "mp4", m4a: "mp4" };

/** "2026-06-03" from the video's date ("Jun 3, 2026"), "" when it has none */
export function isoDate(publishedAt: string): string {
  const d = new Date(publishedAt);
  if (!publishedAt || Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** a JPEG or PNG by its name (YouTube also serves WebP; a cover must be one of the two) */
function coverable(thumb: Thumbnail | undefined): thumb is Thumbnail {
  if (!thumb?.url) return false;
  let path = thumb.url;
  try {
    path = new URL(thumb.url).pathname;
  } catch {
    // not a URL: judged by the text itself
  }
  return !/\.(webp|avif|gif)$/i.test(path) && (thumb.bytes === undefined || thumb.bytes <= MAX_COVER_BYTES);
}

/**
 * The tags a format gets for this video: audio (MP3, M4A, AAC) title, artist, date, source link
 * and cover; MP4 video title, artist, date and description; null for every other format.
 */
export function tagsFor(media: ResolvedMedia, format: FormatId, thumbnail: Thumbnail | undefined): FileTags | null {
  const d = media.details;
  const audio = AUDIO_STYLE[format];
  const video = format.startsWith("mp4-");
  if (!audio && !video) return null;
  const fields: TagFields = {
    title: d.title,
    artist: d.channelTitle,
    date: isoDate(d.publishedAt),
    comment: audio ? media.sourceUrl : "",
    description: video ? d.description : "",
  };
  const cover = audio && coverable(thumbnail) ? { url: thumbnail.url, bytes: thumbnail.bytes ?? null } : null;
  return { style: audio ?? "mp4", fields, cover };
}
