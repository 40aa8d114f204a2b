import { TOO_MANY_REQUESTS } from "#common/error-catalogue.ts";
import type { AudioTrackAnswer, PlaylistAnswer, SubtitleTrackAnswer, SubtitleTranslationAnswer } from "#engine/index.ts";
import type { FormatOption, VideoDetails } from "#engine/types.ts";
import { mediaFields, type MediaOptions } from "./media-options.ts";

/**
 * The browser's calls to the public API (DESIGN §5). Every failure becomes an `ApiError` carrying
 * the engine's code and its user-facing message, so components never parse responses themselves.
 */

export interface ResolvedVideo {
  video: VideoDetails;
  formats: FormatOption[];
  /** the video's caption tracks (optional: an older answer has none) */
  subtitles?: SubtitleTrackAnswer[];
  /** languages a translatable track can be machine-translated into */
  subtitleTranslations?: SubtitleTranslationAnswer[];
  /** the video's audio tracks by language, the original `default` (issue 33 §5; optional: an older answer has none) */
  audioTracks?: AudioTrackAnswer[];
  /** a watch link inside a playlist: the playlist beside its video */
  playlist?: PlaylistAnswer;
}

export type { AudioTrackAnswer, PlaylistAnswer, PlaylistEntryAnswer, SubtitleTrackAnswer, SubtitleTranslationAnswer } from "#engine/index.ts";

/** What POST /resolve answers: a video (maybe with its playlist), or a playlist link's playlist alone. */
export type ResolveResult = ResolvedVideo | { playlist: PlaylistAnswer; video?: undefined };

/** A video's answer (maybe with its playlist), not a playlist link's. */
export function isVideoResult(result: ResolveResult): result is ResolvedVideo {
  return result.video !== undefined;
}

export interface DownloadTicket {
  id: string;
  downloadUrl: string;
  filename: string;
  expiresAt: string;
  bytes: number | null;
}

/** Spec §8 "Friendly mapper" wording for failures that never reached the engine. */
export const FRIENDLY_MESSAGES = {
  offline: "You appear to be offline. Please check your internet connection and try again.",
  network: "Unable to connect to our servers. Please check your internet connection or try again later.",
  timeout: "The request timed out. Please try again when you have a stronger connection.",
  rateLimited: TOO_MANY_REQUESTS,
  server: "Our servers are experiencing an issue. Please try again later.",
  unexpected: "An unexpected error occurred. Please try again later.",
} as const;

/** Spec §8: what the home page shows when the failure carries no message of its own. */
export const RESOLVE_FALLBACK_MESSAGE = "Could not process this video URL. Please try again.";

export class ApiError extends Error {
  readonly code: string;
  /** HTTP status; 0 when the request never got an answer */
  readonly status: number;
  constructor(code: string, message: string, status: number) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
  }
}

/** Whether trying the same request again could give a different answer. */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  if (err.status === 0 || err.status >= 500) return true;
  return err.status === 408 || err.status === 429;
}

function messageForStatus(status: number): string {
  if (status === 429) return FRIENDLY_MESSAGES.rateLimited;
  if (status >= 500) return FRIENDLY_MESSAGES.server;
  return FRIENDLY_MESSAGES.unexpected;
}

type FetchFn = typeof fetch;

/** POST JSON and return the parsed body, or throw an ApiError with the engine's own wording. */
async function postJson<T>(path: string, body: unknown, opts: { signal?: AbortSignal; fetchFn?: FetchFn } = {}): Promise<T> {
  const fetchFn = opts.fetchFn ?? fetch;
  let res: Response;
  try {
    res = await fetchFn(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    const offline = typeof navigator !== "undefined" && navigator.onLine === false;
    throw new ApiError(offline ? "client.offline" : "client.network", offline ? FRIENDLY_MESSAGES.offline : FRIENDLY_MESSAGES.network, 0);
  }
  let data: unknown = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      // A proxy's HTML error page: the status decides the wording below.
      data = null;
    }
  }
  if (!res.ok) {
    const error = (data as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    const code = typeof error?.code === "string" ? error.code : `http.${res.status}`;
    const message = typeof error?.message === "string" && error.message ? error.message : messageForStatus(res.status);
    throw new ApiError(code, message, res.status);
  }
  if (data === null || typeof data !== "object") {
    throw new ApiError("client.bad_response", FRIENDLY_MESSAGES.unexpected, res.status);
  }
  return data as T;
}

export function resolveVideo(url: string, opts?: { signal?: AbortSignal; fetchFn?: FetchFn }): Promise<ResolveResult> {
  return postJson<ResolveResult>("/api/v1/resolve", { url }, opts);
}

/**
 * `language`: the subtitles' language for srt, vtt or transcript (Pro, Ultimate); none: the video's own pick.
 * `profile`: a download profile's id (Ultimate): the server takes its format, language and file name instead.
 * `tags: false`: the file is left bare (no title, channel, date or cover written into it); sent only then.
 * `clip`: a start, an end (seconds) and the exact cut (issue 33 §1); sent only when given.
 * `audioLanguage`: the audio track of a video with several (issue 33 §5); none: the original.
 * `normalize: true`: loudness evened out (MP3, M4A, AAC); `sponsorblock`: segments cut or marked (YouTube); each sent only when on.
 */
export function requestDownload(
  url: string,
  format: string,
  opts?: { signal?: AbortSignal; fetchFn?: FetchFn; language?: string; profile?: string } & MediaOptions,
): Promise<DownloadTicket> {
  const { language, profile, tags, clip, audioLanguage, normalize, sponsorblock, ...rest } = opts ?? {};
  const body = profile ? { url, profile } : language ? { url, format, language } : { url, format };
  return postJson<DownloadTicket>("/api/v1/downloads", { ...body, ...mediaFields({ tags, clip, audioLanguage, normalize, sponsorblock }) }, rest);
}

/**
 * Several links in one format as one ZIP (Ultimate); the ticket's downloadUrl streams the archive.
 * `name` (a playlist's title) names the ZIP instead of the dated default. `profile`: a download
 * profile's id, sent instead of the format (the server applies its format, language and file name to every file).
 */
export function requestBulkDownload(urls: string[], format: string, opts?: { signal?: AbortSignal; fetchFn?: FetchFn; name?: string; profile?: string }): Promise<DownloadTicket> {
  const { name, profile, ...rest } = opts ?? {};
  return postJson<DownloadTicket>("/api/v1/downloads", { urls, ...(profile ? { profile } : { format }), ...(name ? { name } : {}) }, rest);
}

/** What POST /api/v1/jobs answers when a job is created. */
export interface CreatedJob {
  id: string;
  status: string;
  runAt: string;
}

/**
 * One ZIP of `urls` made on the server as a job (Ultimate): kept 24 hours, its link mailed when
 * ready. `profile`: a download profile's id, sent instead of the format.
 */
export function requestBulkJob(urls: string[], format: string, opts?: { signal?: AbortSignal; fetchFn?: FetchFn; profile?: string }): Promise<CreatedJob> {
  const { profile, ...rest } = opts ?? {};
  return postJson<CreatedJob>("/api/v1/jobs", profile ? { urls, profile } : { urls, format }, rest);
}

export function progressUrl(id: string): string {
  return `/api/v1/downloads/${encodeURIComponent(id)}/progress`;
}

/** The message the home page toasts for a failed lookup (spec §8). */
export function resolveErrorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return RESOLVE_FALLBACK_MESSAGE;
}
