/**
 * Where a muxed MPEG-TS segment's video starts against the segment as ffmpeg sees it. ffmpeg
 * counts `-ss` from an input's earliest timestamp, over all its streams; an HLS segment is cut at a
 * video keyframe, but its first audio packet may come a frame or two earlier. Seeking by the
 * playlist's times alone would then cut the video that much early. Read from the segment's first
 * PES headers (no PAT/PMT needed: the stream id says video), in seconds, or null when the bytes do
 * not tell.
 */
const PACKET = 188;
const SYNC = 0x47;
const CLOCK = 90_000;

/** the first PTS (90 kHz) of each PID, and which of them carry video */
function firstTimestamps(buf: Buffer): { video: number | null; earliest: number | null; streams: number } {
  let start = buf.indexOf(SYNC);
  while (start >= 0 && start + 2 * PACKET < buf.length && buf[start + PACKET] !== SYNC) start = buf.indexOf(SYNC, start + 1);
  if (start < 0) return { video: null, earliest: null, streams: 0 };
  const seen = new Set<number>();
  let video: number | null = null;
  let earliest: number | null = null;
  for (let o = start; o + PACKET <= buf.length; o += PACKET) {
    if (buf[o] !== SYNC) break;
    const pid = ((buf[o + 1]! & 0x1f) << 8) | buf[o + 2]!;
    const unitStart = (buf[o + 1]! & 0x40) !== 0;
    if (!unitStart || seen.has(pid)) continue;
    const control = (buf[o + 3]! >> 4) & 3;
    let p = o + 4;
    if (control === 2 || control === 0) continue;
    if (control === 3) p += 1 + buf[o + 4]!;
    if (p + 14 > o + PACKET || buf[p] !== 0 || buf[p + 1] !== 0 || buf[p + 2] !== 1) continue;
    const streamId = buf[p + 3]!;
    const hasPts = (buf[p + 7]! & 0x80) !== 0;
    if (!hasPts) continue;
    seen.add(pid);
    const b = buf.subarray(p + 9, p + 14);
    const pts = ((b[0]! >> 1) & 0x07) * 2 ** 30 + (b[1]! << 22) + ((b[2]! >> 1) << 15) + (b[3]! << 7) + (b[4]! >> 1);
    if (streamId >= 0xe0 && streamId <= 0xef && video === null) video = pts;
    earliest = earliest === null ? pts : Math.min(earliest, pts);
  }
  return { video, earliest, streams: seen.size };
}

/** Seconds by which the first video frame follows the earliest timestamp of the segment; null when unknown. */
export function tsVideoLead(buf: Buffer): number | null {
  const { video, earliest } = firstTimestamps(buf);
  if (video === null || earliest === null) return null;
  const lead = (video - earliest) / CLOCK;
  // more than a second apart is not an interleaving a segment would have: do not trust it
  return lead >= 0 && lead < 1 ? lead : null;
}

/** Enough of a segment's head to tell: a video PES and another stream's seen (for `readUntil`). */
export function tsLeadKnown(buf: Buffer): boolean {
  const { video, streams } = firstTimestamps(buf);
  return video !== null && streams >= 2;
}
