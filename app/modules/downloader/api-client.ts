import { mediaFields, type MediaOptions } from "./media-options.ts";
import { postJson, type FetchFn } from "./api-fetch.ts";

/**
 * The browser's calls to the public API (DESIGN §5). Every failure becomes an `ApiError` carrying
 * the engine's code and its user-facing message, so components never parse responses themselves.
 * The resolve call and the error handling live in api-fetch.ts (the form's first load needs them,
 * not the downloads' requests below) and are re-exported here.
 */

export { ApiError, FRIENDLY_MESSAGES, isRetryable, isVideoResult, RESOLVE_FALLBACK_MESSAGE, resolveErrorMessage, resolveVideo } from "./api-fetch.ts";
export type { AudioTrackAnswer, PlaylistAnswer, PlaylistEntryAnswer, ResolvedVideo, ResolveResult, SubtitleTrackAnswer, SubtitleTranslationAnswer } from "./api-fetch.ts";

export interface DownloadTicket {
  id: string;
  downloadUrl: string;
  filename: string;
  expiresAt: string;
  bytes: number | null;
}

/**
 * `language`: the subtitles' language for srt, vtt or transcript (Pro, Ultimate); none: the video's own pick.
 * `profile`: a download profile's id (Ultimate): the server takes its format, language and file name instead.
 * `tags: false`: the file is left bare (no title, channel, date or cover written into it); sent only then.
 * `clip`: a start, an end (seconds) and the exact cut (issue 33 §1); sent only when given.
 * `audioLanguage`: the audio track of a video with several (issue 33 §5); none: the original.
 * `normalize: true`: loudness evened out (MP3, M4A, AAC); `sponsorblock`: segments cut or marked (YouTube); each sent only when on.
 * `subtitles`: a caption language muxed in or burned into an MP4 or WEBM (Pro); `chapters: "split"`: one file per chapter, the
 * ticket's link then streams a ZIP. Each sent only when given.
 */
export function requestDownload(
  url: string,
  format: string,
  opts?: { signal?: AbortSignal; fetchFn?: FetchFn; language?: string; profile?: string } & MediaOptions,
): Promise<DownloadTicket> {
  const { language, profile, tags, clip, audioLanguage, normalize, sponsorblock, subtitles, chapters, ...rest } = opts ?? {};
  const body = profile ? { url, profile } : language ? { url, format, language } : { url, format };
  return postJson<DownloadTicket>("/api/v1/downloads", { ...body, ...mediaFields({ tags, clip, audioLanguage, normalize, sponsorblock, subtitles, chapters }) }, rest);
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
