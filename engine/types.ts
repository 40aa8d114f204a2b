/**
 * The engine's shared vocabulary. Every source adapter produces a `ResolvedMedia`; the format
 * catalogue turns it into `FormatOption`s and, for one chosen id, a `MediaPlan`; the stream
 * runner executes a plan into bytes. Changes here must stay backwards compatible: several parts
 * of the engine build on these shapes.
 */
import type { SitePlatform } from "#common/links.ts";
import type { PaidPlanId } from "#common/plans.ts";
import type { EngineErrorCode } from "./errors.ts";

/** One uniform result for every adapter. */
export type SourceResult<T> =
  | { ok: true; media: T }
  | {
      ok: false;
      code: EngineErrorCode;
      detail?: string;
      /** user-facing wording when it differs from the catalogue's (e.g. "API error: {service message}") */
      message?: string;
    };

/** "generic" = a direct media link or a web page resolved by yt-dlp's generic extractor. */
export type Platform = "youtube" | "generic" | SitePlatform;

/** Spec §3 "Video details" plus platform, durationSeconds and embedUrl (DESIGN §5). */
export interface VideoDetails {
  id: string;
  title: string;
  /** first 160 characters */
  description: string;
  thumbnail: string;
  channelTitle: string;
  channelId: string;
  channelThumbnail: string;
  isMonetized: boolean;
  /** formatted ("1.2M") or "Unknown" */
  subscriberCount: string;
  /** en-US short date, e.g. "Jun 3, 2026" */
  publishedAt: string;
  /** m:ss or h:mm:ss */
  duration: string;
  /** e.g. "1.2M views" */
  viewCount: string;
  likeCount: string;
  tags: string[];
  /** the watch link (or the original link for generic media) */
  downloadUrl: string;
  transcript?: string;
  platform: Platform;
  durationSeconds: number;
  /** iframe embed URL (no-cookie host for YouTube); null for generic media */
  embedUrl: string | null;
}

/** How the bytes of one upstream stream are reached. */
export type Transport =
  | {
      type: "direct";
      /**
       * the most bytes one Range request may ask for, when the platform throttles or cuts longer
       * ones (googlevideo beyond about 10 MiB); unset, the reader's chunks grow to 64 MiB
       */
      maxRequestBytes?: number;
    }
  | {
      type: "segments";
      /** HLS or DASH; segments are fetched in order (in parallel, delivered in order) */
      protocol: "hls" | "dash";
      init?: SegmentRef;
      segments: SegmentRef[];
      /**
       * a clip's input holds only its covering segments (docs/decisions/061): where they start in
       * the manifest's list and how long that list was, so a fresh manifest is cut the same way
       */
      cut?: { first: number; of: number };
    };

export interface SegmentRef {
  url: string;
  /** inclusive byte range within url, when the segment is a part of a larger file */
  range?: { start: number; end: number };
  durationSeconds?: number;
}

/**
 * A cookie a platform's media needs, sent only to the URLs its scope matches (RFC 6265 domain and
 * path match, Secure, expiry: engine/outbound/upstream-request.ts), redirects included.
 */
export interface ScopedCookie {
  name: string;
  value: string;
  /** lower-case host name, without a leading dot */
  domain: string;
  /** true: that host only; false: the domain and every host under it */
  hostOnly: boolean;
  /** the path the cookie applies to and below ("/" for the whole host) */
  path: string;
  /** only over https */
  secure: boolean;
  /** epoch seconds after which the cookie is not sent; null = no expiry */
  expires: number | null;
}

/** What every request of one upstream stream carries besides its URL. */
export interface UpstreamRequest {
  /** request headers (lower-case names): a Referer, a User-Agent the platform checks */
  headers?: Record<string, string>;
  cookies?: ScopedCookie[];
  /** the egress the stream was resolved on: its URLs may be bound to that address (googlevideo's `ip=`) */
  egress?: EgressRef;
}

/**
 * Which way out of the server a resolve went (engine/outbound/egress.ts): a short id naming no
 * secret (`direct`, `proxy-1`, `ipv6`) and, for `ipv6`, the source address its requests came from.
 */
export interface EgressRef {
  id: string;
  localAddress?: string;
}

/** One stream the platform offers. */
export interface UpstreamStream {
  /** stable within one resolve (e.g. itag for YouTube) */
  id: string;
  /** progressive = audio and video muxed together */
  kind: "progressive" | "video" | "audio";
  url: string;
  transport: Transport;
  /** container of the upstream bytes */
  container: "mp4" | "webm" | "ts" | "m4a" | "mp3" | "aac" | "unknown";
  mimeType?: string;
  /** normalised codec family: "h264" | "vp9" | "av1" | "aac" | "opus" | "mp3" | ... */
  vcodec?: string;
  acodec?: string;
  width?: number;
  height?: number;
  fps?: number;
  /** average bits per second, when known */
  bitrate?: number;
  /** exact byte length of the whole stream, when known */
  contentLength?: number | null;
  /** audio sample rate in Hz */
  audioSampleRate?: number;
  /** language or track name for audio groups */
  language?: string;
  /**
   * false for an audio track that is not the video's own (a dubbed language, descriptive audio:
   * issue 33 §5, docs/decisions/067); plans take it only when its language is asked for. Unset: the default.
   */
  audioDefault?: boolean;
  /** the platform's name for that audio track ("German", "English (US) original") */
  audioName?: string;
  /**
   * false when ffmpeg cannot read the stream from a pipe (an MP4 whose index, the moov box, sits
   * at the end of the file): only passthrough can deliver it. Unset = pipe-safe.
   */
  pipeSafe?: boolean;
  /**
   * headers and scoped cookies every request of this stream needs (yt-dlp's `http_headers` and
   * `cookies`): kept with the stream wherever it goes (the resolve cache, a refresh), never shown
   * to a client
   */
  request?: UpstreamRequest;
}

export interface Thumbnail {
  url: string;
  width?: number;
  height?: number;
  /** maxres | high | medium | default | other */
  name?: string;
  /** the file's size, when a HEAD told it (the HD thumbnail's, at resolve) */
  bytes?: number;
}

export interface CaptionTrack {
  languageCode: string;
  name: string;
  /** the track's own URL (timedtext), not the transcript endpoint */
  url: string;
  /**
   * the file the URL serves as it stands (yt-dlp's tracks: "vtt", "srt", "json3", "srv3", "ttml"…),
   * fetched unchanged; "hls-vtt" for a generic HLS link's subtitle rendition, whose URL is a media
   * playlist of WebVTT segments (read and joined into one cue list: captions/hls-vtt.ts); absent for
   * a YouTube timedtext URL, which is asked for json3
   */
  format?: string;
  /**
   * an "hls-vtt" track's: the first MPEG-TS segment of the video it goes with, whose first timestamp
   * is the subtitles' time zero (captions/hls-vtt.ts); absent for fMP4 video
   */
  timeline?: SegmentRef;
  /** auto-generated speech recognition track */
  autoGenerated: boolean;
  /** the platform can translate this track into `ResolvedMedia.captionTranslations` (YouTube `tlang`) */
  translatable?: boolean;
  /** the rendered file's exact size per kind, when the track was read while the link resolved */
  bytes?: Partial<Record<"txt" | "srt" | "vtt", number>>;
  /**
   * what requests for the file carry besides its URL (yt-dlp's tracks: the headers it names for
   * the file and the cookies of its jar, each to its own scope; decision 052); never in an answer
   */
  request?: UpstreamRequest;
}

export interface ResolvedMedia {
  platform: Platform;
  /** the link the user gave, normalised */
  sourceUrl: string;
  details: VideoDetails;
  streams: UpstreamStream[];
  thumbnails: Thumbnail[];
  captions: CaptionTrack[];
  /** languages a translatable caption track can be machine-translated into (YouTube's list) */
  captionTranslations?: Array<{ languageCode: string; name: string }>;
  /** epoch ms after which the stream URLs are expected to stop working */
  expiresAt?: number;
  /**
   * the egress this answer was fetched through (`egress.id`: `direct`, `proxy-1`, `ipv6`; the host
   * counts health per egress); its streams carry it too, and every request for them goes out that way
   */
  egress?: EgressRef;
  /**
   * the platform client whose answer this is (YouTube's InnerTube client, `ytdlp` for yt-dlp's):
   * the host counts downloads per client
   */
  client?: string;
  /** the video's chapters (issue 33 §2), in order, covering it from 0 to its duration; absent when it has none */
  chapters?: Chapter[];
}

/** One chapter of a video: its title and its span in seconds. */
export interface Chapter {
  title: string;
  start: number;
  end: number;
}

export type FormatId =
  | "mp4-1080"
  | "mp4-720"
  | "mp4-480"
  | "mp4-360"
  | "mp3-320"
  | "mp3-256"
  | "mp3-128"
  | "aac-256"
  | "webm"
  | "m4a"
  | "thumbnail-hd"
  | "transcript"
  | "mp4-1440"
  | "mp4-2160"
  | "mp4-4320"
  | "srt"
  | "vtt";

/** Spec §3 "Format option" plus available, premium, bytes (DESIGN §5). */
export interface FormatOption {
  id: FormatId;
  label: string;
  quality: string;
  format: string;
  /** human text: exact/estimated size ("84.2 MB", "~5.1 MB") or the spec's range as a fallback */
  size: string;
  icon: "video" | "audio" | "image" | "text";
  available: boolean;
  premium: boolean;
  /** exact or estimated bytes, null if unknown */
  bytes: number | null;
  /** true when bytes is an estimate */
  estimated?: boolean;
  /** why not available / honest note, e.g. "Source audio is 128 kbps" */
  note?: string;
  /** whether the caller's plan may download it (set by the engine; absent in older payloads) */
  allowed?: boolean;
}

/** What a tagged file says about itself (issue 33 §3; engine/media/tags/). */
export interface TagFields {
  title: string;
  /** the channel or uploader */
  artist: string;
  /** "YYYY-MM-DD", or "" when the video's date is unknown */
  date: string;
  /** the source link (MP3, M4A, AAC) */
  comment: string;
  /** the video's description (MP4 video) */
  description: string;
  /** the chosen audio track's language, ISO 639-2 ("ger"): an MP3's TLAN frame (docs/decisions/067) */
  language?: string;
  /** the album: a chapter's file names its video here (docs/decisions/070) */
  album?: string;
  /** the file's place and the count: a chapter's among its video's (docs/decisions/070) */
  track?: { number: number; total: number };
}

/** How one download is tagged: ID3 (MP3) or MP4 tags, the fields, and the thumbnail fetched as its cover (none for video). */
export interface FileTags {
  style: "id3" | "mp4";
  fields: TagFields;
  /** with its size when resolve measured it */
  cover: { url: string; bytes: number | null } | null;
  /** an MP3's chapters, as ID3 CHAP/CTOC frames of the tag (docs/decisions/064) */
  chapters?: Chapter[];
}

/**
 * A clip of the file (issue 33 §1, docs/decisions/061): ffmpeg reads each input from `seeks[i]`
 * seconds on (a direct stream through a seekable loopback input, a segmented one from its first
 * covering segment, which the plan's input already starts at) and writes `duration` seconds.
 */
export interface PlanClip {
  /** the asked start and end, in the source's seconds */
  start: number;
  end: number;
  /** per input: where ffmpeg seeks (`-ss`), in seconds from that input's own start */
  seeks: number[];
  /** seconds written (`-t`) after the seek point */
  duration: number;
  /** cut at the exact frames (re-encoded) instead of at the keyframe at or before the start */
  exact: boolean;
  /** per input: seconds its times are moved on by (`-itsoffset`): a smart cut's video, which starts at its first frame (docs/decisions/072) */
  offsets?: number[];
}

/** Loudness normalisation of an audio file (issue 33 §5, docs/decisions/066): measured first when `passes` is 2. */
export interface PlanLoudness {
  passes: 1 | 2;
}

/** A span cut out of the output (SponsorBlock's segments, docs/decisions/065): seconds of the uncut output's timeline. */
export interface PlanCut {
  start: number;
  end: number;
}

/**
 * Subtitles into the video (issue 33 §6, docs/decisions/069): the caption track, fetched when the
 * download opens and fed to ffmpeg as SRT on its own pipe, muxed as a selectable track (`mov_text`
 * in MP4, WebVTT in WEBM) or burned into the picture (the video re-encoded).
 */
export interface PlanSubtitles {
  track: CaptionTrack;
  mode: "soft" | "burn";
}

/** What the stream runner must do for one download. */
export type MediaPlan =
  | {
      op: "passthrough";
      input: UpstreamStream;
      mimeType: string;
      extension: string;
      bytes: number | null;
      /** tags written into the file's head on its way through (docs/decisions/059) */
      tags?: FileTags;
    }
  | {
      op: "remux";
      inputs: UpstreamStream[];
      /** output container */
      container: "mp4" | "webm" | "m4a";
      mimeType: string;
      extension: string;
      bytes: number | null;
      /** re-encode the video/audio only when the source leaves no other way */
      transcodeVideo?: "h264";
      transcodeAudio?: "aac" | "opus";
      /** output height when transcoding video */
      height?: number;
      tags?: FileTags;
      clip?: PlanClip;
      /** spans cut out (SponsorBlock, docs/decisions/065), on the clip's timeline; the video and audio are then re-encoded */
      cuts?: PlanCut[];
      /** chapters written into the file (issue 33 §2, docs/decisions/064), on the output's timeline */
      chapters?: Chapter[];
      /** the audio track's language, written on it, when one was asked for (docs/decisions/067) */
      audioLanguage?: string;
      /** a caption track muxed or burned in, its cues moved onto the output's timeline (docs/decisions/069) */
      subtitles?: PlanSubtitles;
    }
  | {
      op: "transcode";
      input: UpstreamStream;
      codec: "mp3" | "aac";
      bitrateKbps: number;
      mimeType: string;
      extension: string;
      bytes: number | null;
      tags?: FileTags;
      clip?: PlanClip;
      cuts?: PlanCut[];
      loudness?: PlanLoudness;
      chapters?: Chapter[];
      audioLanguage?: string;
    }
  | { op: "image"; url: string; mimeType: "image/jpeg"; extension: "jpg"; bytes: number | null }
  | { op: "text"; kind: "txt" | "srt" | "vtt"; track: CaptionTrack; mimeType: string; extension: string; bytes: null };

/**
 * Who is asking. `kind` and `plan` decide entitlements (entitlements.ts); `userId` is carried
 * through a signed link so the host can record a signed-in user's download history.
 */
export interface Caller {
  kind: "anonymous" | "free" | "premium";
  plan?: PaidPlanId;
  /** the signed-in account, when there is one */
  userId?: string;
}
