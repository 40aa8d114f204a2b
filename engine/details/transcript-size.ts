import type { Logger } from "pino";
import { HLS_VTT } from "../captions/hls-vtt.ts";
import { fetchCues, pickCaptionTrack, renderTranscript, type TranscriptKind } from "../captions/fetch-transcript.ts";
import type { OutboundFetch } from "../outbound/outbound-fetch.ts";
import type { ResolvedMedia } from "../types.ts";

/** A slow caption host must not hold up the video's details: the size then stays unknown. */
const READ_TIMEOUT_MS = 2_000;
const KINDS: TranscriptKind[] = ["txt", "srt", "vtt"];

/**
 * The transcript's exact size: the caption track a transcript would be made from is read once
 * while the link resolves (cached with the rest of the resolve) and rendered as each text kind,
 * so the transcript row shows its bytes instead of the spec's range. Without an answer the row
 * keeps the range, and the download still reads the track itself.
 */
export async function measureTranscript(media: ResolvedMedia, fetch: OutboundFetch, opts: { signal?: AbortSignal; logger?: Logger } = {}): Promise<void> {
  const track = pickCaptionTrack(media.captions);
  // an HLS subtitle playlist is a request per segment: too many to hold up a resolve for
  if (!track || track.bytes || track.format === HLS_VTT) return;
  try {
    const cues = await fetchCues(track, fetch, { timeoutMs: READ_TIMEOUT_MS, retries: 0, signal: opts.signal });
    const bytes: Partial<Record<TranscriptKind, number>> = {};
    for (const kind of KINDS) {
      const text = renderTranscript(cues, kind);
      // the download refuses a track with no words: no size for what cannot be downloaded
      if (text.trim().length > 0) bytes[kind] = Buffer.byteLength(text, "utf8");
    }
    track.bytes = bytes;
  } catch (err) {
    opts.logger?.debug({ err }, "transcript size unknown: the caption track could not be read");
  }
}
