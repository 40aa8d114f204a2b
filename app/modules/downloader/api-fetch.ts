import { TOO_MANY_REQUESTS } from "#common/error-catalogue.ts";
import type { AudioTrackAnswer, PlaylistAnswer, SubtitleTrackAnswer, SubtitleTranslationAnswer } from "#engine/index.ts";
import type { Chapter, FormatOption, VideoDetails } from "#engine/types.ts";

/**
 * What the link form needs on the first load of a page: POST JSON with the API's error handling,
 * and the resolve call. The downloads' requests (and the media options they send) are in
 * api-client.ts, which re-exports this module: they are loaded with the format picker, after a
 * resolve, not with the form (the home page's first-load budget, bench/first-load-js.ts).
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
  /** the video's chapters in seconds (issue 33 §2; empty or absent: none) */
  chapters?: Chapter[];
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

export type FetchFn = typeof fetch;

/** POST JSON and return the parsed body, or throw an ApiError with the engine's own wording. */
export async function postJson<T>(path: string, body: unknown, opts: { signal?: AbortSignal; fetchFn?: FetchFn } = {}): Promise<T> {
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

/** The message the home page toasts for a failed lookup (spec §8). */
export function resolveErrorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return RESOLVE_FALLBACK_MESSAGE;
}
