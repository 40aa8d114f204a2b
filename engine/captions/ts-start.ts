/**
 * The first timestamp of an MPEG-TS segment's video: where a download's picture starts (in the MP4
 * ffmpeg writes, the first frame is at zero, whatever the audio's start) and, give or take the
 * audio's first milliseconds, where HLS players count subtitles from (hls.js's `initPTS`). Read
 * from the PES headers in the segment's first bytes; a segment without video (an audio-only
 * variant) has its earliest stream's.
 */
import type { OutboundFetch, OutboundInit } from "../outbound/outbound-fetch.ts";
import type { SegmentRef } from "../types.ts";
import { isVideoStreamId, pesHeaders } from "#common/ts-pes.ts";

/** The start of a segment read for its first timestamps: a few hundred packets, every stream's first PES among them. */
export const TS_START_BYTES = 64 * 1024;

/** The earlier of two 33-bit timestamps, counted across the wrap. */
function earlier(a: number | null, b: number): number {
  return a === null || (((b - a) % 2 ** 33) + 2 ** 33) % 2 ** 33 > 2 ** 32 ? b : a;
}

/**
 * The earliest PTS (90 kHz) among the video PES packets (stream ids 0xE0–0xEF) that begin in
 * `bytes`, an MPEG-TS segment's start, else among any PES packets; null when they are not MPEG-TS
 * (no sync byte every 188 bytes) or hold no PTS.
 */
export function firstTsPts(bytes: Buffer): number | null {
  let video: number | null = null;
  let any: number | null = null;
  for (const { streamId, pts } of pesHeaders(bytes)) {
    any = earlier(any, pts);
    if (isVideoStreamId(streamId)) video = earlier(video, pts);
  }
  return video ?? any;
}

/** `segment`'s first timestamp (90 kHz), its first bytes read through `fetch`; null when they cannot be read or hold none. */
export async function readTsStart(fetch: OutboundFetch, segment: SegmentRef, init: OutboundInit = {}): Promise<number | null> {
  const from = segment.range?.start ?? 0;
  const to = Math.min(from + TS_START_BYTES - 1, segment.range?.end ?? Infinity);
  try {
    const res = await fetch(segment.url, { ...init, maxBytes: TS_START_BYTES, headers: { range: `bytes=${from}-${to}` } });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    return firstTsPts(Buffer.from(await res.arrayBuffer()));
  } catch {
    // a server that sends the whole segment, or none: the subtitles' own first map stands in
    return null;
  }
}
