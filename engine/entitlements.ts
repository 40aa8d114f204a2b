/**
 * What a caller may download. The one place the accounts issue extends (plans, quotas):
 * anonymous and free callers get everything up to 1080p and the TXT transcript; premium adds
 * 1440p/2160p/4320p and SRT/VTT subtitles.
 */
import type { Caller, FormatId } from "./types.ts";

const PREMIUM_ONLY: ReadonlySet<FormatId> = new Set<FormatId>(["mp4-1440", "mp4-2160", "mp4-4320", "srt", "vtt"]);

export function isPremiumFormat(id: FormatId): boolean {
  return PREMIUM_ONLY.has(id);
}

export function canDownload(caller: Caller, id: FormatId): boolean {
  if (caller.kind === "premium") return true;
  return !PREMIUM_ONLY.has(id);
}
