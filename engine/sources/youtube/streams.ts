/**
 * Turns InnerTube formats (as parsed by youtubei.js) into our `UpstreamStream`s. Only formats we
 * can fetch as plain byte ranges are kept: a direct `url` (no signature cipher), not DRM, not
 * OTF (segmented live-style), not the DRC duplicate of an audio itag. A video's other audio
 * tracks (dubbed languages, descriptive audio: several formats of one itag) are kept, each with
 * its language and `audioDefault: false`, under an id of its own (issue 33 §5, docs/decisions/067).
 */
import type { UpstreamStream } from "../../types.ts";
import { containerOf, parseMimeType } from "./codecs.ts";

/**
 * googlevideo throttles a request that asks for more than about 10 MiB (yt-dlp's http_chunk_size
 * for YouTube is the same): the ranged reader's chunks for these streams grow no further.
 */
export const GOOGLEVIDEO_MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/** The fields of youtubei.js's `Format` we read (kept structural so tests can build them). */
export interface InnertubeFormat {
  itag: number;
  url?: string;
  signature_cipher?: string;
  cipher?: string;
  mime_type: string;
  width?: number;
  height?: number;
  fps?: number;
  bitrate: number;
  average_bitrate?: number;
  content_length?: number;
  audio_sample_rate?: number;
  has_audio: boolean;
  has_video: boolean;
  drm_families?: string[];
  is_type_otf?: boolean;
  is_drc?: boolean;
  audio_track?: { audio_is_default: boolean; display_name: string; id: string };
  language?: string | null;
  is_descriptive?: boolean;
}

/** A format whose bytes need deciphering or are only reachable over SABR. */
export function hasDirectUrl(format: InnertubeFormat): boolean {
  return typeof format.url === "string" && format.url.length > 0 && !format.signature_cipher && !format.cipher;
}

export function toUpstreamStream(format: InnertubeFormat): UpstreamStream | null {
  if (!hasDirectUrl(format)) return null;
  if (format.drm_families?.length || format.is_type_otf || format.is_drc) return null;
  const container = containerOf(format.mime_type);
  if (container === "unknown") return null;
  const mime = parseMimeType(format.mime_type);
  // youtubei.js infers has_audio from audioQuality/audioBitrate; the codecs say it too.
  const hasVideo = format.has_video || mime.vcodec !== undefined;
  const hasAudio = format.has_audio || mime.acodec !== undefined;
  if (!hasVideo && !hasAudio) return null;
  const kind: UpstreamStream["kind"] = hasVideo && hasAudio ? "progressive" : hasVideo ? "video" : "audio";
  const track = kind === "audio" ? format.audio_track : undefined;
  const stream: UpstreamStream = {
    // the original track keeps the itag (what a refresh finds it by); another language's is "140.de.3"
    id: track && !track.audio_is_default ? `${format.itag}.${track.id}` : String(format.itag),
    kind,
    url: format.url!,
    transport: { type: "direct", maxRequestBytes: GOOGLEVIDEO_MAX_REQUEST_BYTES },
    container,
    mimeType: format.mime_type,
    bitrate: format.average_bitrate || format.bitrate || undefined,
    contentLength: format.content_length ?? null,
  };
  if (kind !== "audio") {
    stream.vcodec = mime.vcodec;
    stream.width = format.width;
    stream.height = format.height;
    stream.fps = format.fps;
  }
  if (kind !== "video") {
    stream.acodec = mime.acodec;
    if (format.audio_sample_rate) stream.audioSampleRate = format.audio_sample_rate;
    const language = audioLanguageOf(format);
    if (language) stream.language = language;
  }
  if (track) {
    if (!track.audio_is_default) stream.audioDefault = false;
    if (track.display_name) stream.audioName = track.display_name;
  }
  return stream;
}

/**
 * An audio format's language: xtags' `lang=`, else the track id's ("en.4" is English); descriptive
 * audio is "en-desc", as yt-dlp names it, so it is a choice of its own beside the original.
 */
function audioLanguageOf(format: InnertubeFormat): string | undefined {
  const code = format.language || format.audio_track?.id.split(".")[0] || undefined;
  if (!code) return undefined;
  return format.is_descriptive || /descriptive/i.test(format.audio_track?.display_name ?? "") ? `${code}-desc` : code;
}

/** Earliest `expire=` (epoch seconds) among the stream URLs, as epoch ms. */
export function expiryOf(streams: UpstreamStream[]): number | undefined {
  let earliest: number | undefined;
  for (const s of streams) {
    let expire: string | null;
    try {
      expire = new URL(s.url).searchParams.get("expire");
    } catch {
      continue; // a stream URL we cannot parse carries no expiry; the others still count
    }
    const n = expire ? Number(expire) : NaN;
    if (Number.isFinite(n) && n > 0 && (earliest === undefined || n * 1000 < earliest)) earliest = n * 1000;
  }
  return earliest;
}
