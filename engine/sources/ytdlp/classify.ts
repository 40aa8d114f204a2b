/**
 * yt-dlp's failures (its "ERROR: …" lines) onto our catalogue. Logins, cookies, private videos
 * and DRM are out of scope (issue 12): such links get "this video needs a login on its platform".
 * Patterns are matched case-insensitively on yt-dlp's English messages.
 */
import type { EngineErrorCode } from "../../errors.ts";

const RULES: Array<[RegExp, EngineErrorCode]> = [
  // the network jail (network-jail.ts) stopped a connection that did not go through our proxy
  // (a redirect to ftp://, …): the link leads somewhere we do not read
  [/refused by VidFetch/, "link.unsupported"],
  // DRM is out of scope like logins (issue 12): the video plays only inside the platform's player
  [/\bdrm\b|drm.protected/i, "video.login_required"],
  [/private video|this video is private|content isn'?t available|is only available for registered users/i, "video.login_required"],
  [/log(?:ged)?[ -]?in|sign[ -]?in|cookies|authenticat|account/i, "video.login_required"],
  [/age[- ]?(?:restricted|gate|limit)|confirm your age|inappropriate for some users/i, "video.age_restricted"],
  [/not available in your (?:country|region)|geo.?restrict/i, "video.region_blocked"],
  [/this live event will begin|premieres? in/i, "video.upcoming"],
  [/unsupported url/i, "link.unsupported"],
  [/http error 404|not found|does not exist|has been removed|no longer available|video unavailable|was deleted/i, "video.not_found"],
  [/no video formats found|no video could be found|requested format is not available/i, "video.no_formats"],
  [/timed out|time.?out/i, "upstream.timeout"],
];

/** The last "ERROR:" line yt-dlp printed, without its prefix and the "[extractor] id:" part. */
export function errorLine(stderr: string): string {
  const lines = stderr.split(/\r?\n/).filter((l) => l.startsWith("ERROR:"));
  const last = lines.at(-1) ?? "";
  return last.replace(/^ERROR:\s*/, "").replace(/^\[[^\]]+\]\s*[^:\s]*:\s*/, "").slice(0, 300);
}

/** The catalogue code for a failed run; connection failures stay "upstream.fetch_failed". */
export function classifyFailure(stderr: string): EngineErrorCode {
  const line = errorLine(stderr);
  for (const [re, code] of RULES) if (re.test(line)) return code;
  return "upstream.fetch_failed";
}
