/**
 * Where a muxed MPEG-TS segment's video starts against the segment as ffmpeg sees it. ffmpeg
 * counts `-ss` from an input's earliest timestamp, over all its streams; an HLS segment is cut at a
 * video keyframe, but its first audio packet may come a frame or two earlier. Seeking by the
 * playlist's times alone would then cut the video that much early. Read from the segment's first
 * PES headers (no PAT/PMT needed: the stream id says video), in seconds, or null when the bytes do
 * not tell.
 */
import { isVideoStreamId, pesHeaders } from "#common/ts-pes.ts";

const CLOCK = 90_000;

/** the first PTS (90 kHz) of each PID, and which of them carry video */
function firstTimestamps(buf: Buffer): { video: number | null; earliest: number | null; streams: number } {
  const seen = new Set<number>();
  let video: number | null = null;
  let earliest: number | null = null;
  for (const { pid, streamId, pts } of pesHeaders(buf)) {
    if (seen.has(pid)) continue;
    seen.add(pid);
    if (isVideoStreamId(streamId) && video === null) video = pts;
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
