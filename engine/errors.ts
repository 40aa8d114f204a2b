import { CatalogueError, defineErrors, TOO_MANY_REQUESTS } from "#common/error-catalogue.ts";

/**
 * The engine's error catalogue: every failure is one of these codes, with an HTTP status and the
 * user-facing wording (spec §5 and §8 where the spec has words; plain, specific sentences where
 * it does not). Never throw strings; never swallow an error into an empty result.
 */
export const ERRORS = defineErrors({
  // links (spec §5)
  "link.empty": { status: 400, message: "Please enter a YouTube URL" },
  "link.invalid": { status: 400, message: "Please enter a valid YouTube URL" },
  "link.no_id": { status: 400, message: "Could not extract video ID from URL" },
  "link.unsupported": { status: 400, message: "This link is not a supported video or media link." },
  "link.platform_unavailable": {
    status: 422,
    message: "This server cannot download videos from this platform.",
  },
  "link.blocked_address": {
    status: 400,
    message: "This link points to a private or local network address, which is not allowed.",
  },

  // video availability (spec §8 "Video")
  "video.not_found": { status: 404, message: "Video not found" },
  "video.private": { status: 403, message: "This video is private." },
  "video.login_required": {
    status: 403,
    message: "This video needs a login on its platform, and we only download videos anyone can watch without one.",
  },
  "video.age_restricted": { status: 403, message: "This video is age-restricted and cannot be downloaded." },
  "video.region_blocked": { status: 451, message: "This video is not available in the server's region." },
  "video.members_only": { status: 403, message: "This video is available to channel members only." },
  "video.music_premium": { status: 403, message: "This video is only available to Music Premium members." },
  "video.paid": { status: 403, message: "This video requires a purchase or rental." },
  "video.live": { status: 422, message: "Live streams cannot be downloaded while they are live." },
  "video.upcoming": { status: 422, message: "This video has not premiered yet." },
  "video.bot_check": {
    status: 503,
    message: "Sign in to confirm you're not a bot. The platform is refusing our server right now; please try again later.",
  },
  "video.unavailable": { status: 422, message: "This video is unavailable." },
  "video.no_formats": { status: 422, message: "No downloadable formats were found for this video." },

  // upstream (spec §8 "API error", friendly mapper)
  "upstream.api_error": { status: 502, message: "API error" },
  "upstream.fetch_failed": {
    status: 502,
    message: "Unable to connect to our servers. Please check your internet connection or try again later.",
  },
  "upstream.timeout": { status: 504, message: "The request timed out. Please try again when you have a stronger connection." },
  "upstream.too_large": { status: 502, message: "The platform sent a response that is too large to process." },
  "upstream.expired": { status: 410, message: "The video's download link expired. Please try again." },
  "upstream.refused": {
    status: 502,
    message: "The platform refused to send this video to our server. Please try again later.",
  },

  // formats (DESIGN §5: unknown 400, unavailable 422)
  "format.unknown": { status: 400, message: "Unknown format." },
  "format.unavailable": { status: 422, message: "This format is not available for this video." },
  "format.premium": { status: 403, message: "This format is a premium feature. Upgrade to Premium to download it." },

  // clips (issue 33 §1): a start and end the source cannot honour, never a silent full file
  "clip.out_of_range": { status: 422, message: "The clip must start before it ends, and within the video's length." },
  "clip.unavailable": { status: 422, message: "This file cannot be cut into a clip." },

  // loudness and audio tracks (issue 33 §5)
  "normalize.unavailable": { status: 422, message: "Loudness can only be evened out in MP3, M4A and AAC files." },
  "audio.language_unavailable": { status: 422, message: "This video has no audio track in that language." },

  // SponsorBlock (issue 33 §4): YouTube's segments cut out or written as chapters
  "sponsorblock.unavailable": { status: 422, message: "SponsorBlock segments can only be applied to YouTube videos, in MP4, WEBM, MP3, M4A and AAC files." },

  // subtitles into the video and one file per chapter (issue 33 §6, §2)
  "subtitles.unavailable": { status: 422, message: "This video has no subtitles in that language, or this format cannot carry them (MP4 and WEBM can)." },
  "chapters.unavailable": { status: 422, message: "This video has no chapters to split it by." },

  // features a plan unlocks (common/plans.ts); engine/refusals.ts names the plans that have it
  "plan.required": { status: 403, message: "This feature comes with a paid plan." },

  // bulk downloads (issue 30 §3)
  "bulk.too_many_links": { status: 400, message: "Too many links for one bulk download." },

  // downloads
  "download.busy": { status: 503, message: "The server is busy. Please try again in a few seconds." },
  "download.rate_limited": { status: 429, message: TOO_MANY_REQUESTS },
  "download.link_invalid": { status: 403, message: "This download link is not valid." },
  "download.link_expired": { status: 410, message: "This download link has expired. Please start the download again." },
  "download.link_used": { status: 410, message: "This download link has already been used. Start the download again from the page." },
  "download.not_found": { status: 404, message: "Download not found." },
  "download.range_invalid": { status: 416, message: "The requested part of the file does not exist." },
  "download.failed": { status: 500, message: "Our servers are experiencing an issue. Please try again later." },

  // extras (spec §8 "Other toasts")
  "thumbnail.unavailable": { status: 404, message: "Thumbnail not available" },
  "transcript.unavailable": { status: 404, message: "Transcript is not available for this video." },

  // request validation
  "request.invalid": { status: 400, message: "The request is not valid." },
  internal: { status: 500, message: "An unexpected error occurred. Please try again later." },
});

export type EngineErrorCode = keyof typeof ERRORS;

export class EngineError extends CatalogueError<EngineErrorCode> {
  static override readonly kind = "engine";
  /** extra detail for logs (never shown verbatim unless `publicDetail`) */
  readonly detail?: string;
  /** seconds a client should wait (busy / rate limits) */
  readonly retryAfter?: number;

  constructor(code: EngineErrorCode, opts: { detail?: string; cause?: unknown; message?: string; retryAfter?: number } = {}) {
    super(EngineError.kind, code, ERRORS[code].status, opts.message ?? ERRORS[code].message, { cause: opts.cause });
    this.name = "EngineError";
    this.detail = opts.detail;
    this.retryAfter = opts.retryAfter;
  }
}

export function isEngineError(err: unknown): err is EngineError {
  return err instanceof EngineError;
}

/** The JSON body of every API error (DESIGN §5). */
export function errorBody(err: EngineError): { error: { code: EngineErrorCode; message: string } } {
  return { error: { code: err.code, message: err.message } };
}

/**
 * Text that may go to the logs: URLs keep only their origin, because a path or query can carry
 * what a visitor typed, an upstream's signed parameters or one of our download tokens.
 */
export function redactUrls(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (match) => {
    try {
      const url = new URL(match);
      return url.pathname === "/" && !url.search && !url.hash ? url.origin : `${url.origin}/…`;
    } catch {
      return "<url>";
    }
  });
}
