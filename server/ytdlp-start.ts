/**
 * The start-up lines about yt-dlp (issues 12 and 32 §6): its path and version, or that it is
 * absent and what that means for visitors, and a warning when it is older than 60 days, so an
 * operator reading the log knows what to install or update.
 */
import type { Logger } from "pino";
import type { Engine } from "#engine/index.ts";
import { staleYtdlpWarning } from "#engine/sources/ytdlp/version-age.ts";

export function logYtdlp(logger: Logger, ytdlp: Engine["ytdlp"], configured: string | undefined, today: Date = new Date()): void {
  if (ytdlp) {
    logger.info({ ytdlp: ytdlp.path, version: ytdlp.version }, `yt-dlp ${ytdlp.version} located: links of other platforms resolve through it`);
    const stale = staleYtdlpWarning(ytdlp.version, today);
    if (stale) logger.warn({ ytdlp: ytdlp.path, version: ytdlp.version }, stale);
    return;
  }
  const why = configured ? `YTDLP_PATH=${configured} switches it off` : "not found on PATH (install yt-dlp or set YTDLP_PATH)";
  logger.warn({ ytdlp: null }, `yt-dlp absent (${why}): Facebook, Instagram and other platforms' links are answered that this server cannot download them`);
}
