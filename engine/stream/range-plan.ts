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

const KiB = 1024;
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.floor(n)));

/**
 * Sizes for a direct file that may turn out throttled: the probe (first request) is long enough
 * to measure its connection's rate (≥ 64 KiB, ≤ 512 KiB, about an eighth of the file), and the
 * parallel parts are small enough that every connection gets work (about 2 per connection, ≤ 1 MiB,
 * so a window of them stays a few MiB); neither exceeds the configured chunk size.
 */
export function rangeSizing(chunkBytes: number, length: number | null, concurrency: number): { probeBytes: number; partBytes: number } {
  const probe = length === null ? 512 * KiB : clamp(length / 8, 64 * KiB, 512 * KiB);
  const part = length === null ? 1024 * KiB : clamp(length / (2 * Math.max(1, concurrency)), 64 * KiB, 1024 * KiB);
  return { probeBytes: Math.min(chunkBytes, probe), partBytes: Math.min(chunkBytes, part) };
}
