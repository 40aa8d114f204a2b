import type { SegmentRef } from "../types.ts";

/**
 * Range scheduling: [from, last] (inclusive) cut into consecutive parts of `partBytes` (the last
 * one shorter), each a byte-range reference to the same URL, so parallel parts of a direct file
 * are fetched, retried and delivered by the same machinery as HLS/DASH segments.
 */
export function splitRange(url: string, from: number, last: number, partBytes: number): SegmentRef[] {
  const size = Math.max(1, Math.floor(partBytes));
  const parts: SegmentRef[] = [];
  for (let start = from; start <= last; start += size) {
    parts.push({ url, range: { start, end: Math.min(last, start + size - 1) } });
  }
  return parts;
}
