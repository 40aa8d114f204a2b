import type { ResolvedMedia } from "../types.ts";

/** what one segment reference holds on the heap besides its URL's characters (object, number, range) */
const PER_SEGMENT_BYTES = 120;
/** the details, thumbnails, captions and a stream's own fields */
const BASE_BYTES = 16 * 1024;
const PER_STREAM_BYTES = 1024;

/**
 * Roughly how much heap a resolved link holds (issue 27, finding 4: the resolve cache counted
 * entries, and 60 links of 100,000 segments each held 900 MB). Segments dominate: their count
 * times their URL's length. Cheap: one pass over the segments, once per resolve.
 */
export function estimateMediaBytes(media: ResolvedMedia): number {
  let bytes = BASE_BYTES + media.details.description.length * 2;
  for (const s of media.streams) {
    bytes += PER_STREAM_BYTES + s.url.length;
    if (s.transport.type !== "segments") continue;
    for (const seg of s.transport.segments) bytes += PER_SEGMENT_BYTES + seg.url.length;
  }
  return bytes;
}
