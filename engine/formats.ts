/**
 * The format catalogue (spec §3 "Format option" plus the premium ids) and, per video, which
 * formats really exist, how big they are, and how each one is made (a `MediaPlan`): remux the
 * platform's streams whenever possible, transcode only where the format asks for it (MP3, AAC) or
 * the source leaves no other way.
 */
import { formatByteSize } from "#common/byte-units.ts";
import { safeFileTitle } from "#common/file-names.ts";
import { formatClipTime } from "#common/clip-time.ts";
import { pickCaptionTrack } from "./captions/fetch-transcript.ts";
import { canDownload, isPremiumFormat } from "./entitlements.ts";
import { EngineError } from "./errors.ts";
import { chapterPlan } from "./media/chapters/plan-chapters.ts";
import { clipPlan } from "./media/clip/plan-clip.ts";
import { checkSponsorBlock, cutSpans, sponsorChapters, sponsorCutPlan, withCutChapters } from "./media/sponsorblock/plan-sponsorblock.ts";
import type { SkipSegment } from "./media/sponsorblock/segments.ts";
import { loudnessPlan } from "./media/loudness/loudness.ts";
import { withAudioLanguage } from "./media/audio/audio-tracks.ts";
import { carriesSubtitles, subtitlesPlan } from "./captions/plan-subtitles.ts";
import { DEFAULT_MEDIA_OPTIONS, isClip, type MediaOptions } from "./media/options/media-options.ts";
import { tagBytes, tagPlan } from "./media/tags/plan-tags.ts";
import { iso639Alpha3 } from "./media/audio/iso639.ts";
import type { Caller, FormatId, FormatOption, MediaPlan, ResolvedMedia, Thumbnail, UpstreamStream } from "./types.ts";

export interface FormatSpec {
  label: string;
  quality: string;
  format: string;
  /** the spec's approximate size, shown only when nothing better is known; null when the spec has none */
  sizeRange: string | null;
  icon: FormatOption["icon"];
  premium: boolean;
}

const spec = (label: string, quality: string, format: string, sizeRange: string | null, icon: FormatOption["icon"], id: FormatId): FormatSpec => ({
  label,
  quality,
  format,
  sizeRange,
  icon,
  premium: isPremiumFormat(id),
});

/** In display order: the spec's twelve, then the premium additions. */
export const FORMAT_CATALOG: Record<FormatId, FormatSpec> = {
  "mp4-1080": spec("MP4 1080p Full HD", "1080p", "MP4", "120-250 MB", "video", "mp4-1080"),
  "mp4-720": spec("MP4 720p HD", "720p", "MP4", "60-120 MB", "video", "mp4-720"),
  "mp4-480": spec("MP4 480p SD", "480p", "MP4", "30-60 MB", "video", "mp4-480"),
  "mp4-360": spec("MP4 360p SD", "360p", "MP4", "18-35 MB", "video", "mp4-360"),
  "mp3-320": spec("MP3 320 Premium", "320 kbps", "MP3", "10-15 MB", "audio", "mp3-320"),
  "mp3-256": spec("MP3 256 High", "256 kbps", "MP3", "8-12 MB", "audio", "mp3-256"),
  "mp3-128": spec("MP3 128 Standard", "128 kbps", "MP3", "4-8 MB", "audio", "mp3-128"),
  "aac-256": spec("AAC 256 High Fidelity", "256 kbps", "AAC", "9-13 MB", "audio", "aac-256"),
  webm: spec("WEBM Original", "Original", "WEBM", "30-90 MB", "video", "webm"),
  m4a: spec("M4A Audio High Quality", "High Quality", "M4A", "6-10 MB", "audio", "m4a"),
  "thumbnail-hd": spec("Thumbnail HD JPG", "HD", "JPG", "200 KB", "image", "thumbnail-hd"),
  transcript: spec("Video Transcript TXT", "Text", "TXT", "5-30 KB", "text", "transcript"),
  "mp4-1440": spec("MP4 1440p 2K", "1440p", "MP4", null, "video", "mp4-1440"),
  "mp4-2160": spec("MP4 2160p 4K", "2160p", "MP4", null, "video", "mp4-2160"),
  "mp4-4320": spec("MP4 4320p 8K", "4320p", "MP4", null, "video", "mp4-4320"),
  srt: spec("Subtitles SRT", "Text", "SRT", null, "text", "srt"),
  vtt: spec("Subtitles VTT", "Text", "VTT", null, "text", "vtt"),
};

export const FORMAT_IDS = Object.keys(FORMAT_CATALOG) as FormatId[];

export function isFormatId(s: string): s is FormatId {
  return Object.prototype.hasOwnProperty.call(FORMAT_CATALOG, s);
}

export { canDownload };

const MP4_HEIGHTS: Partial<Record<FormatId, number>> = {
  "mp4-360": 360,
  "mp4-480": 480,
  "mp4-720": 720,
  "mp4-1080": 1080,
  "mp4-1440": 1440,
  "mp4-2160": 2160,
  "mp4-4320": 4320,
};
const MP3_KBPS: Partial<Record<FormatId, number>> = { "mp3-320": 320, "mp3-256": 256, "mp3-128": 128 };

/** Video codecs Chromium plays from MP4 without re-encoding, best first. */
const MP4_VIDEO_PREFERENCE = ["h264", "av1", "vp9"];
const WEBM_VIDEO_PREFERENCE = ["vp9", "av1", "vp8"];
const WEBM_AUDIO = ["opus", "vorbis"];
/** WebM "Original" stays within what free callers get (spec: max 1080p). */
const WEBM_MAX_HEIGHT = 1080;

/** "1080p" means the shorter side, so vertical videos (1080×1920) count as 1080p. */
function qualityHeight(s: UpstreamStream): number | undefined {
  if (s.width && s.height) return Math.min(s.width, s.height);
  return s.height;
}

const TIERS = Object.values(MP4_HEIGHTS).sort((a, b) => a - b);

/**
 * The MP4 quality a stream is offered under: its own when it is a standard one, else the
 * highest standard quality below it (a 640×1136 reel is offered as 480p, never as more than it
 * is). Streams under 360p have none.
 */
function qualityTier(s: UpstreamStream): number | undefined {
  const h = qualityHeight(s);
  if (h === undefined) return undefined;
  return TIERS.filter((t) => t <= h).at(-1);
}

const hasVideo = (s: UpstreamStream) => s.kind === "video" || s.kind === "progressive";
const hasAudio = (s: UpstreamStream) => s.kind === "audio" || s.kind === "progressive";

function rankBy<T>(items: T[], ...keys: ((x: T) => number)[]): T[] {
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const d = key(b) - key(a);
      if (d !== 0) return d;
    }
    return 0;
  });
}

function prefIndex(list: string[], value: string | undefined): number {
  const i = value ? list.indexOf(value) : -1;
  return i < 0 ? -list.length - 1 : -i;
}

/** Best audio for a container: preferred codecs first, then separate audio tracks, then bitrate. */
function bestAudio(media: ResolvedMedia, preferred: string[]): UpstreamStream | undefined {
  const candidates = media.streams.filter(hasAudio);
  return rankBy(
    candidates,
    (s) => prefIndex(preferred, s.acodec),
    (s) => (s.kind === "audio" ? 1 : 0),
    (s) => (s.kind === "audio" ? (s.bitrate ?? 0) : 0),
    (s) => s.audioSampleRate ?? 0,
  )[0];
}

/** Plain audio tracks (not muxed with video), best bitrate first. */
function audioTracks(media: ResolvedMedia): UpstreamStream[] {
  return rankBy(media.streams.filter((s) => s.kind === "audio"), (s) => s.bitrate ?? 0);
}

function durationOf(media: ResolvedMedia): number {
  return media.details.durationSeconds > 0 ? media.details.durationSeconds : 0;
}

/** Exact length of a stream: its contentLength, or the sum of byte ranges of all its segments. */
function exactBytes(s: UpstreamStream): number | null {
  if (typeof s.contentLength === "number" && s.contentLength > 0) return s.contentLength;
  if (s.transport.type === "segments") {
    const parts = s.transport.init ? [s.transport.init, ...s.transport.segments] : s.transport.segments;
    if (parts.length > 0 && parts.every((p) => p.range)) return parts.reduce((n, p) => n + (p.range!.end - p.range!.start + 1), 0);
  }
  return null;
}

/**
 * An audio track whose rate nobody stated (an HLS audio rendition: its rate is inside the
 * variant's BANDWIDTH) is counted at a common AAC/Opus rate, so its row shows an estimate.
 */
const NOMINAL_AUDIO_BPS = 128_000;

function estimatedBytes(s: UpstreamStream, duration: number): number | null {
  const bitrate = s.bitrate || (s.kind === "audio" ? NOMINAL_AUDIO_BPS : 0);
  if (bitrate && duration > 0) return Math.round((bitrate * duration) / 8);
  return null;
}

interface SizeInfo {
  bytes: number | null;
  estimated: boolean;
}

/** Size of a stream copy of these inputs: exact when every length is known, else from bitrates. */
function copySize(inputs: UpstreamStream[], duration: number): SizeInfo {
  const exact = inputs.map(exactBytes);
  if (exact.every((b): b is number => b !== null)) return { bytes: exact.reduce((a, b) => a + b, 0), estimated: false };
  let total = 0;
  for (let i = 0; i < inputs.length; i++) {
    const b = exact[i] ?? estimatedBytes(inputs[i]!, duration);
    if (b === null) return { bytes: null, estimated: false };
    total += b;
  }
  return { bytes: total, estimated: true };
}

/** Rough H.264 bitrates (bits/s) for a re-encode at a height, used only for size estimates. */
const H264_ESTIMATE_BPS: Record<number, number> = { 360: 700_000, 480: 1_200_000, 720: 2_500_000, 1080: 5_000_000, 1440: 9_000_000, 2160: 18_000_000, 4320: 45_000_000 };

interface Built {
  plan: MediaPlan;
  size: SizeInfo;
  note?: string;
  /** what the file really is, when it differs from the catalogue's quality ("128 kbps" for AAC 256 of a 128 kbps source) */
  quality?: string;
}

type Outcome = { ok: true; built: Built } | { ok: false; note: string };

const unavailable = (note: string): Outcome => ({ ok: false, note });

function planMp4(media: ResolvedMedia, height: number): Outcome {
  const duration = durationOf(media);
  const atHeight = media.streams.filter((s) => hasVideo(s) && qualityTier(s) === height);
  if (atHeight.length === 0) return unavailable(`No ${height}p stream for this video`);

  const compatible = atHeight.filter((s) => MP4_VIDEO_PREFERENCE.includes(s.vcodec ?? ""));
  const needsTranscode = compatible.length === 0 && atHeight.every((s) => s.vcodec !== undefined);
  // codec unknown (e.g. a generic source that could not be probed) counts as compatible: ffmpeg
  // copies what it gets, which beats re-encoding blind
  const pool = needsTranscode ? atHeight : compatible.length > 0 ? compatible : atHeight;
  const video = rankBy(
    pool,
    // a stream that is exactly this quality before one offered under it
    (s) => (qualityHeight(s) === height ? 1 : 0),
    (s) => prefIndex(MP4_VIDEO_PREFERENCE, s.vcodec),
    (s) => (s.kind === "video" ? 1 : 0),
    (s) => s.fps ?? 0,
    (s) => s.bitrate ?? 0,
  )[0]!;

  const audio = video.kind === "progressive" && !media.streams.some((s) => s.kind === "audio") ? video : bestAudio(media, ["aac", "mp3", "opus"]);

  // A progressive MP4 with both tracks in MP4-ready codecs is already the file: send it as is.
  if (
    video.kind === "progressive" &&
    audio === video &&
    video.container === "mp4" &&
    video.transport.type === "direct" &&
    (video.vcodec === undefined || video.vcodec === "h264") &&
    (video.acodec === undefined || video.acodec === "aac")
  ) {
    const bytes = exactBytes(video);
    return {
      ok: true,
      built: {
        plan: { op: "passthrough", input: video, mimeType: "video/mp4", extension: "mp4", bytes },
        size: bytes !== null ? { bytes, estimated: false } : { bytes: estimatedBytes(video, duration), estimated: true },
      },
    };
  }

  const inputs = audio && audio !== video ? [video, audio] : [video];
  const transcodeAudio = audio && audio.acodec !== undefined && audio.acodec !== "aac" && audio.acodec !== "mp3" ? ("aac" as const) : undefined;
  let size = copySize(inputs, duration);
  if (needsTranscode && duration > 0) {
    const audioBytes = audio && audio !== video ? (exactBytes(audio) ?? estimatedBytes(audio, duration) ?? 0) : (192_000 * duration) / 8;
    size = { bytes: Math.round(((H264_ESTIMATE_BPS[height] ?? 5_000_000) * duration) / 8 + audioBytes), estimated: true };
  } else if (needsTranscode || transcodeAudio) {
    size = { bytes: size.bytes, estimated: size.bytes !== null };
  }
  return {
    ok: true,
    built: {
      plan: {
        op: "remux",
        inputs,
        container: "mp4",
        mimeType: "video/mp4",
        extension: "mp4",
        bytes: size.bytes,
        ...(needsTranscode ? { transcodeVideo: "h264" as const, height } : {}),
        ...(transcodeAudio ? { transcodeAudio } : {}),
      },
      size,
      note: needsTranscode ? `Converted from ${video.vcodec?.toUpperCase()}` : undefined,
    },
  };
}

function planWebm(media: ResolvedMedia): Outcome {
  const duration = durationOf(media);
  const videos = media.streams.filter((s) => hasVideo(s) && WEBM_VIDEO_PREFERENCE.includes(s.vcodec ?? "") && (qualityHeight(s) ?? 0) <= WEBM_MAX_HEIGHT);
  const video = rankBy(
    videos,
    (s) => qualityHeight(s) ?? 0,
    (s) => prefIndex(WEBM_VIDEO_PREFERENCE, s.vcodec),
    (s) => s.fps ?? 0,
    (s) => s.bitrate ?? 0,
  )[0];
  if (!video) return unavailable("No WebM stream for this video");
  const audio = bestAudio(media, WEBM_AUDIO);
  const inputs = audio && audio !== video ? [video, audio] : [video];
  const transcodeAudio = audio && !WEBM_AUDIO.includes(audio.acodec ?? "") ? ("opus" as const) : undefined;
  const size = copySize(inputs, duration);
  return {
    ok: true,
    built: {
      plan: { op: "remux", inputs, container: "webm", mimeType: "video/webm", extension: "webm", bytes: size.bytes, ...(transcodeAudio ? { transcodeAudio } : {}) },
      size: transcodeAudio ? { bytes: size.bytes, estimated: size.bytes !== null } : size,
    },
  };
}

function planM4a(media: ResolvedMedia): Outcome {
  const duration = durationOf(media);
  const aac = rankBy(
    media.streams.filter((s) => hasAudio(s) && s.acodec === "aac"),
    (s) => (s.kind === "audio" ? 1 : 0),
    (s) => (s.kind === "audio" ? (s.bitrate ?? 0) : 0),
  )[0];
  if (!aac) return unavailable("No AAC audio track for this video");
  if (aac.kind === "audio" && (aac.container === "m4a" || aac.container === "mp4") && aac.transport.type === "direct") {
    const bytes = exactBytes(aac);
    return {
      ok: true,
      built: {
        plan: { op: "passthrough", input: aac, mimeType: "audio/mp4", extension: "m4a", bytes },
        size: bytes !== null ? { bytes, estimated: false } : { bytes: estimatedBytes(aac, duration), estimated: true },
      },
    };
  }
  // muxed with video, or in TS/ADTS: copy the AAC track into an M4A
  const size = aac.kind === "audio" ? copySize([aac], duration) : { bytes: duration > 0 ? Math.round((128_000 * duration) / 8) : null, estimated: true };
  return {
    ok: true,
    built: { plan: { op: "remux", inputs: [aac], container: "m4a", mimeType: "audio/mp4", extension: "m4a", bytes: size.bytes }, size },
  };
}

/** AAC bitrates an encode may pick when the source is below the one asked for. */
const AAC_STEPS = [96, 128, 160, 192, 224, 256];

function planAudioTranscode(media: ResolvedMedia, codec: "mp3" | "aac", asked: number): Outcome {
  const duration = durationOf(media);
  const source = audioTracks(media)[0] ?? bestAudio(media, []);
  if (!source) return unavailable("No audio track for this video");
  const sourceKbps = source.kind === "audio" && source.bitrate ? Math.round(source.bitrate / 1000) : null;
  const below = sourceKbps !== null && sourceKbps < asked * 0.95;
  // AAC "256" of a 128 kbps source is encoded at the first step that holds the source, and says
  // so: a higher bitrate only makes the file bigger. MP3 keeps the bitrate its label names.
  const kbps = codec === "aac" && below ? (AAC_STEPS.find((s) => s >= sourceKbps! * 0.95) ?? asked) : asked;
  const bytes = duration > 0 ? Math.round((kbps * 1000 * duration) / 8) : null;
  // Honest label: a 320 kbps MP3 made from 128 kbps audio is still 128 kbps of detail.
  const note = below ? `Source audio is ${sourceKbps} kbps` : undefined;
  return {
    ok: true,
    built: {
      plan: {
        op: "transcode",
        input: source,
        codec,
        bitrateKbps: kbps,
        mimeType: codec === "mp3" ? "audio/mpeg" : "audio/mp4",
        extension: codec === "mp3" ? "mp3" : "m4a",
        bytes,
      },
      size: { bytes, estimated: bytes !== null },
      note,
      ...(kbps !== asked ? { quality: `${kbps} kbps` } : {}),
    },
  };
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split(/[?#]/)[0] ?? url;
  }
}

/** maxres JPEG, else the largest JPEG, else the largest image of any kind. */
export function pickHdThumbnail(thumbnails: Thumbnail[]): Thumbnail | undefined {
  const withUrl = thumbnails.filter((t) => t.url);
  // YouTube serves the same sizes as .jpg and .webp; the file is saved as .jpg, so JPEG first
  const isJpeg = (t: Thumbnail) => !/\.(webp|png|avif|gif)$/i.test(pathOf(t.url));
  const area = (t: Thumbnail) => (t.width ?? 0) * (t.height ?? 0);
  const named: Record<string, number> = { maxres: 4, high: 3, medium: 2, default: 1 };
  return rankBy(
    withUrl,
    (t) => (isJpeg(t) ? 1 : 0),
    (t) => (t.name === "maxres" ? 1 : 0),
    area,
    (t) => named[t.name ?? ""] ?? 0,
  )[0];
}

function planThumbnail(media: ResolvedMedia): Outcome {
  const thumb = pickHdThumbnail(media.thumbnails);
  if (!thumb) return unavailable("Thumbnail not available");
  return { ok: true, built: { plan: { op: "image", url: thumb.url, mimeType: "image/jpeg", extension: "jpg", bytes: null }, size: { bytes: thumb.bytes ?? null, estimated: false } } };
}

const TEXT_MIME = { txt: "text/plain; charset=utf-8", srt: "application/x-subrip; charset=utf-8", vtt: "text/vtt; charset=utf-8" } as const;

function planText(media: ResolvedMedia, kind: "txt" | "srt" | "vtt"): Outcome {
  const track = pickCaptionTrack(media.captions);
  if (!track) return unavailable("Transcript is not available for this video.");
  const bytes = track.bytes?.[kind] ?? null;
  return { ok: true, built: { plan: { op: "text", kind, track, mimeType: TEXT_MIME[kind], extension: kind, bytes: null }, size: { bytes, estimated: false } } };
}

function usesUnpipeable(plan: MediaPlan): boolean {
  const inputs = plan.op === "remux" ? plan.inputs : plan.op === "transcode" ? [plan.input] : [];
  return inputs.some((s) => s.pipeSafe === false);
}

/** The plan and size for a format with the download's media options applied (tags: decision 059). */
function build(source: ResolvedMedia, id: FormatId, options: MediaOptions, segments?: readonly SkipSegment[] | null): Outcome {
  checkSponsorBlock(source, id, options);
  // subtitles go into MP4 and WEBM only (docs/decisions/069)
  if (options.subtitles && !carriesSubtitles(id)) throw new EngineError("subtitles.unavailable", { detail: `format ${id}` });
  const sponsor = options.sponsorblock && segments?.length ? options.sponsorblock.action : undefined;
  const duration = source.details.durationSeconds;
  // SponsorBlock's segments as chapters: the video's own split at their edges (docs/decisions/065)
  const media = sponsor === "chapters" ? { ...source, chapters: sponsorChapters(source.chapters, segments!, duration) } : source;
  // an M4A normalised is an AAC encode of it (docs/decisions/066)
  // a cut is ffmpeg's, from a pipe: a file whose index trails its media cannot be cut; nor take subtitles unless a clip reads it on loopback
  const piped = sponsor === "cut" || (options.subtitles !== undefined && !isClip(options));
  const cuttable = piped ? { ...media, streams: media.streams.filter((s) => s.pipeSafe !== false) } : media;
  const bare = options.normalize && id === "m4a" ? buildBare(cuttable, "aac-256") : buildBare(cuttable, id);
  // a clip: cut before the tags are sized (docs/decisions/061)
  const cut = bare.ok && isClip(options) ? { ok: true as const, built: { ...bare.built, ...clipPlan(bare.built, media, options) } } : bare;
  // SponsorBlock's segments cut out, on the clip's timeline (docs/decisions/065)
  const skipped = cut.ok && sponsor === "cut" ? { ok: true as const, built: { ...cut.built, ...sponsorCutPlan(cut.built, cutSpans(cut.built.plan, segments!, duration), duration) } } : cut;
  // the caption track muxed or burned in, its cues on that same timeline when the link opens (docs/decisions/069)
  const subtitled = skipped.ok && options.subtitles ? { ok: true as const, built: { ...skipped.built, ...subtitlesPlan(skipped.built, media, options.subtitles) } } : skipped;
  const outcome = subtitled.ok && options.normalize ? { ok: true as const, built: { ...subtitled.built, ...loudnessPlan(subtitled.built, media, id) } } : subtitled;
  if (!outcome.ok || !options.tags) return outcome;
  const tagged = { ...outcome.built, ...tagPlan(outcome.built, media, id, pickHdThumbnail(media.thumbnails)) };
  // chapters ride with the tags (docs/decisions/064), moved onto the timeline a cut leaves
  return { ok: true, built: { ...tagged, ...withCutChapters({ ...tagged, ...chapterPlan(tagged, media) }) } };
}

/**
 * Streams ffmpeg cannot read from a pipe are fine to pass through; for any other operation the
 * plan is made again from the remaining streams.
 */
function buildBare(media: ResolvedMedia, id: FormatId): Outcome {
  const outcome = buildFrom(media, id);
  if (!outcome.ok || !usesUnpipeable(outcome.built.plan)) return outcome;
  const retry = buildFrom({ ...media, streams: media.streams.filter((s) => s.pipeSafe !== false) }, id);
  return retry.ok ? retry : unavailable("This file can only be downloaded in its original format");
}

function buildFrom(media: ResolvedMedia, id: FormatId): Outcome {
  const height = MP4_HEIGHTS[id];
  if (height) return planMp4(media, height);
  const mp3 = MP3_KBPS[id];
  if (mp3) return planAudioTranscode(media, "mp3", mp3);
  switch (id) {
    case "aac-256":
      return planAudioTranscode(media, "aac", 256);
    case "webm":
      return planWebm(media);
    case "m4a":
      return planM4a(media);
    case "thumbnail-hd":
      return planThumbnail(media);
    case "transcript":
      return planText(media, "txt");
    case "srt":
      return planText(media, "srt");
    case "vtt":
      return planText(media, "vtt");
    default:
      throw new EngineError("format.unknown", { detail: id });
  }
}

/**
 * The plan for one format, or `EngineError("format.unavailable")` when this video has no way to make it.
 * `segments`: SponsorBlock's, fetched when the download opens (absent or null: none to apply).
 */
export function planFormat(media: ResolvedMedia, id: FormatId, options: MediaOptions = DEFAULT_MEDIA_OPTIONS, segments?: readonly SkipSegment[] | null): MediaPlan {
  if (!isFormatId(id)) throw new EngineError("format.unknown", { detail: String(id) });
  // one audio track to choose from: the original, or the language asked for (docs/decisions/067)
  const outcome = build(withAudioLanguage(media, options.audioLanguage), id, options, segments);
  if (!outcome.ok) {
    // a transcript's note is the spec's words for it ("Transcript is not available for this video.")
    const message = id === "transcript" || id in TEXT_MIME ? outcome.note : undefined;
    throw new EngineError("format.unavailable", { detail: `${id}: ${outcome.note}`, message });
  }
  return languageTagged(outcome.built.plan, options.audioLanguage);
}

/**
 * A chosen audio language written into the file: on its audio track, or for an MP3 (no track to
 * write it on) as its ID3 tag's TLAN frame, whose bytes the size counts; a bare MP3 says nothing.
 */
function languageTagged(plan: MediaPlan, language: string | undefined): MediaPlan {
  if (!language) return plan;
  if (plan.op === "remux" || (plan.op === "transcode" && plan.codec === "aac")) return { ...plan, audioLanguage: language };
  const code = iso639Alpha3(language);
  if (plan.op !== "transcode" || plan.tags?.style !== "id3" || !code) return plan;
  const tags = { ...plan.tags, fields: { ...plan.tags.fields, language: code } };
  return { ...plan, tags, bytes: plan.bytes === null ? null : plan.bytes + tagBytes(tags) - tagBytes(plan.tags) };
}

/** "84.2 MB", "512 KB"; estimates get a leading "~" (the one rule for sizes: common/byte-units.ts). */
export function formatBytes(bytes: number, estimated = false): string {
  return formatByteSize(bytes, estimated);
}

/** Every catalogue format for this video: availability, size (with the tags a default download gets), and whether the caller may have it. */
export function listFormats(media: ResolvedMedia, caller: Caller, options: MediaOptions = DEFAULT_MEDIA_OPTIONS): FormatOption[] {
  return FORMAT_IDS.map((id) => {
    const entry = FORMAT_CATALOG[id];
    const outcome = build(withAudioLanguage(media, options.audioLanguage), id, options);
    const base = { id, label: entry.label, quality: entry.quality, format: entry.format, icon: entry.icon, premium: entry.premium, allowed: canDownload(caller, id) };
    const fallbackSize = entry.sizeRange ?? "Size unknown";
    // a format this video does not have has no size either (the spec's range would read as a promise)
    if (!outcome.ok) return { ...base, size: "", available: false, bytes: null, note: outcome.note };
    const { size, note, quality } = outcome.built;
    const option: FormatOption = {
      ...base,
      quality: quality ?? base.quality,
      size: size.bytes !== null ? formatBytes(size.bytes, size.estimated) : fallbackSize,
      available: true,
      bytes: size.bytes,
    };
    if (size.bytes !== null && size.estimated) option.estimated = true;
    const notes = [note, !base.allowed ? "Premium feature" : undefined].filter(Boolean);
    if (notes.length > 0) option.note = notes.join(". ");
    return option;
  });
}

function safeTitle(media: ResolvedMedia): string {
  return safeFileTitle(media.details.title) || media.details.id || "video";
}

const FILENAME_SUFFIX: Partial<Record<FormatId, string>> = {
  "mp3-320": " (320 kbps)",
  "mp3-256": " (256 kbps)",
  "mp3-128": " (128 kbps)",
  "aac-256": " (AAC 256 kbps)",
};

/**
 * " [1.02.03-1.05.00]": a clip's span in its file's name, written as the picker shows times but
 * with dots for colons (Windows and macOS refuse colons in names); "" for the whole file.
 */
export function clipNamePart(media: ResolvedMedia, options: MediaOptions | undefined): string {
  if (!isClip(options)) return "";
  const duration = media.details.durationSeconds;
  const start = options?.start ?? 0;
  const end = Math.min(options?.end ?? duration, duration > 0 ? duration : Infinity);
  // a clip of the whole video is the whole file (media/clip/plan-clip.ts), and is named as one
  if (!(end > start) || (start === 0 && end >= duration)) return "";
  const time = (seconds: number) => formatClipTime(seconds).replaceAll(":", ".");
  return ` [${time(start)}-${time(end)}]`;
}

/**
 * The file name a download is saved as (spec §8: youtube-thumbnail-{id}.jpg, {Title}-transcript.txt);
 * a clip's name says its span before the extension: "Title (720p) [1.02.03-1.05.00].mp4".
 */
export function filenameFor(media: ResolvedMedia, id: FormatId, language?: string, options?: MediaOptions): string {
  const clip = clipNamePart(media, options);
  if (clip) {
    const whole = filenameFor(media, id, language);
    const dot = whole.lastIndexOf(".");
    return `${whole.slice(0, dot)}${clip}${whole.slice(dot)}`;
  }
  if (id === "thumbnail-hd") {
    return media.platform === "youtube" ? `youtube-thumbnail-${media.details.id}.jpg` : `${safeTitle(media)}-thumbnail.jpg`;
  }
  if (id === "transcript") {
    // non-word characters removed (Unicode-aware, so non-Latin titles keep their letters)
    const base = media.details.title.replace(/[^\p{L}\p{N}_]/gu, "") || media.details.id || "video";
    return language ? `${base}-transcript-${language}.txt` : `${base}-transcript.txt`;
  }
  // "Title.de.srt": players pick a subtitle file's language from its name
  if (id === "srt" || id === "vtt") return language ? `${safeTitle(media)}.${language}.${id}` : `${safeTitle(media)}.${id}`;
  const height = MP4_HEIGHTS[id];
  if (height) return `${safeTitle(media)} (${height}p).mp4`;
  if (id === "webm") return `${safeTitle(media)}.webm`;
  if (id === "m4a") return `${safeTitle(media)}.m4a`;
  return `${safeTitle(media)}${FILENAME_SUFFIX[id] ?? ""}.${id === "aac-256" ? "m4a" : "mp3"}`;
}
