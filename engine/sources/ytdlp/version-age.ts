/**
 * How old the server's yt-dlp is (issue 32 §6). yt-dlp's versions are its release dates
 * (`2023.03.04`, a hotfix `2023.03.04.1`, a nightly `2026.11.20.232800`), and the platforms change
 * faster than that: a yt-dlp a few months old fails on links a current one reads. The start log
 * warns past `YTDLP_MAX_AGE_DAYS`, saying how to update.
 */

/** Past this age the start log warns (yt-dlp releases every few weeks). */
export const YTDLP_MAX_AGE_DAYS = 60;

const DAY_MS = 86_400_000;

/** The release date a version names (UTC midnight), or null for anything else. */
export function ytdlpReleaseDate(version: string): Date | null {
  const m = /^(\d{4})\.(\d{2})\.(\d{2})(?:\.\d+)?$/.exec(version.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // 2023.02.30 is no date: Date would roll it over to March
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}

/** Whole days from the version's release to `today` (0 for a release dated later), or null when the version names no date. */
export function ytdlpAgeDays(version: string, today: Date): number | null {
  const released = ytdlpReleaseDate(version);
  if (!released) return null;
  return Math.max(0, Math.floor((today.getTime() - released.getTime()) / DAY_MS));
}

/** How an operator updates yt-dlp, for the start warning (docs/deploy.md "Keeping yt-dlp current"). */
export const YTDLP_UPDATE_HINT =
  "update it: `sudo node deploy/fetch-yt-dlp.mjs /usr/local/bin/yt-dlp` (or `yt-dlp -U` for a release binary, `pip install -U yt-dlp` for pip's), rebuild a container image, then restart; see docs/deploy.md";

/** The start warning for a yt-dlp older than `YTDLP_MAX_AGE_DAYS`, or null when it is recent (or its version names no date). */
export function staleYtdlpWarning(version: string, today: Date): string | null {
  const age = ytdlpAgeDays(version, today);
  if (age === null || age <= YTDLP_MAX_AGE_DAYS) return null;
  return `yt-dlp ${version} is ${age} days old (more than ${YTDLP_MAX_AGE_DAYS}): platforms change often and an old yt-dlp fails on their links; ${YTDLP_UPDATE_HINT}`;
}
