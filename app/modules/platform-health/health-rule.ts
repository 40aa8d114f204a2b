/**
 * How healthy a platform is, from what recently happened to its links (issue 32 §5). Outcomes
 * come from real resolves, real downloads (a file delivered whole, or a stream that failed on our
 * side) and the canary job; the rule below turns them into the status
 * `GET /api/v1/status` answers and the plain words the site shows.
 *
 * The rule, over the outcomes of the last STATUS_WINDOW_MS (at most KEPT_OUTCOMES of them):
 * - a failure is one the platform caused (a bot wall, an error answer, a timeout, no formats);
 *   a video's own state (private, removed, age-restricted, region-blocked…) proves the platform
 *   answered and counts neither way, and our own refusals (a bad link, a plan) are never recorded;
 * - a resolve that worked proves less than a file that came: once a visitor's download failed in
 *   the window, resolve successes are left out (a platform that answers every resolve and refuses
 *   every download is down, not fine); downloads, canary checks and resolve failures always count;
 * - "down": at least DOWN_MIN_FAILURES failures and no success at all;
 * - "degraded": at least DEGRADED_MIN_FAILURES failures making up at least DEGRADED_SHARE of the
 *   outcomes;
 * - "ok" otherwise, including when nothing was tried lately (no evidence of trouble).
 */

export type HealthStatus = "ok" | "degraded" | "down";

/** where an outcome was seen */
export type HealthSource = "resolve" | "download" | "canary";

export interface HealthOutcome {
  /** epoch ms */
  at: number;
  ok: boolean;
  /** the engine's error code of a failure (engine/errors.ts); null for a success */
  code: string | null;
  source: HealthSource;
}

export const STATUS_WINDOW_MS = 30 * 60 * 1000;
/** outcomes kept per platform: the newest ones */
export const KEPT_OUTCOMES = 50;
export const DOWN_MIN_FAILURES = 3;
export const DEGRADED_MIN_FAILURES = 2;
export const DEGRADED_SHARE = 0.25;

/** The video's own state: the platform answered, this video cannot be had. */
const VIDEO_STATE_CODES = new Set([
  "video.not_found",
  "video.private",
  "video.login_required",
  "video.age_restricted",
  "video.region_blocked",
  "video.members_only",
  "video.music_premium",
  "video.paid",
  "video.live",
  "video.upcoming",
  "video.unavailable",
]);

/**
 * Failures the platform (or the way to it) causes: these and every `upstream.*` code; anything
 * else is ours or the caller's and is not recorded.
 */
const PLATFORM_FAILURE_CODES = new Set(["video.bot_check", "video.no_formats", "download.failed", "internal"]);

/** Whether a failure with this code says anything about the platform (and so is recorded). */
export function recordsHealth(code: string): boolean {
  return VIDEO_STATE_CODES.has(code) || PLATFORM_FAILURE_CODES.has(code) || code.startsWith("upstream.");
}

/** A failure that counts against the platform (a video's own state does not). */
export function isPlatformFailure(outcome: Pick<HealthOutcome, "ok" | "code">): boolean {
  return !outcome.ok && outcome.code !== null && !VIDEO_STATE_CODES.has(outcome.code);
}

/** The cause, in plain words, of the failures seen most; a code without an entry names no cause a visitor can use. */
const CAUSE_WORDS: Record<string, (platform: string) => string> = {
  "video.bot_check": (p) => `${p} is asking our server to prove it is not a bot.`,
  "upstream.timeout": (p) => `${p} is answering too slowly.`,
  "upstream.fetch_failed": (p) => `Our server cannot reach ${p}.`,
  "upstream.api_error": (p) => `${p} is answering with errors.`,
  "upstream.too_large": (p) => `${p} is answering with errors.`,
  "upstream.expired": (p) => `${p}'s download links expire before they are used.`,
  "upstream.refused": (p) => `${p} is refusing to send its videos to our server.`,
  "video.no_formats": (p) => `${p} offers no downloadable formats for its videos.`,
};

export interface HealthCounts {
  successes: number;
  /** platform failures by error code */
  failures: Record<string, number>;
  /** answers naming the video's own state (private, removed…), by code */
  videoStates: Record<string, number>;
}

export interface HealthVerdict {
  status: HealthStatus;
  counts: HealthCounts;
  /** plain words for a visitor when the status is not "ok", else null */
  detail: string | null;
}

/** The outcomes the rule looks at: inside the window, newest KEPT_OUTCOMES; resolve successes only while no download failed. */
function recent(outcomes: readonly HealthOutcome[], now: number): HealthOutcome[] {
  const inWindow = outcomes
    .filter((o) => o.at > now - STATUS_WINDOW_MS && o.at <= now)
    .sort((a, b) => b.at - a.at)
    .slice(0, KEPT_OUTCOMES);
  const downloadFailed = inWindow.some((o) => o.source === "download" && isPlatformFailure(o));
  return downloadFailed ? inWindow.filter((o) => !(o.ok && o.source === "resolve")) : inWindow;
}

export function countOutcomes(outcomes: readonly HealthOutcome[]): HealthCounts {
  const counts: HealthCounts = { successes: 0, failures: {}, videoStates: {} };
  for (const o of outcomes) {
    if (o.ok) counts.successes++;
    else if (o.code !== null) {
      const bucket = isPlatformFailure(o) ? counts.failures : counts.videoStates;
      bucket[o.code] = (bucket[o.code] ?? 0) + 1;
    }
  }
  return counts;
}

/** The platform's status now, from its outcomes (any order, any age: the window is applied here). */
export function healthVerdict(platformName: string, outcomes: readonly HealthOutcome[], now: number): HealthVerdict {
  const counts = countOutcomes(recent(outcomes, now));
  const failures = Object.values(counts.failures).reduce((a, b) => a + b, 0);
  const tried = failures + counts.successes;
  let status: HealthStatus = "ok";
  if (failures >= DOWN_MIN_FAILURES && counts.successes === 0) status = "down";
  else if (failures >= DEGRADED_MIN_FAILURES && failures >= tried * DEGRADED_SHARE) status = "degraded";
  if (status === "ok") return { status, counts, detail: null };
  const top = Object.entries(counts.failures).sort((a, b) => b[1] - a[1])[0]?.[0];
  const cause = top !== undefined ? CAUSE_WORDS[top] : undefined;
  const because = cause ? ` ${cause(platformName)}` : "";
  const detail =
    status === "down"
      ? `${platformName} downloads are not working right now; we're on it.${because}`
      : `${platformName} downloads are less reliable than usual right now: ${failures} of the last ${tried} attempts failed.${because}`;
  return { status, counts, detail };
}
