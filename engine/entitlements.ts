/**
 * What a caller may download: the engine's one view of plans (issue 9 §4). It mirrors the app's
 * ENTITLEMENTS (app/modules/billing/plans.ts) by the Caller's plan, without importing app code:
 * anonymous, free and Basic get everything up to 1080p and the TXT transcript; Pro and Ultimate
 * add 1440p/2160p/4320p and SRT/VTT subtitles. Every paid plan is exempt from per-IP fair use.
 */
import type { Caller, FormatId } from "./types.ts";

type Tier = "anonymous" | "free" | "basic" | "pro" | "ultimate";

const TIERS: Record<Tier, { premiumFormats: boolean; fairUse: boolean }> = {
  anonymous: { premiumFormats: false, fairUse: true },
  free: { premiumFormats: false, fairUse: true },
  basic: { premiumFormats: false, fairUse: false },
  pro: { premiumFormats: true, fairUse: false },
  ultimate: { premiumFormats: true, fairUse: false },
};

const PREMIUM_ONLY: ReadonlySet<FormatId> = new Set<FormatId>(["mp4-1440", "mp4-2160", "mp4-4320", "srt", "vtt"]);

/** A premium caller without a known plan gets the least a paid plan gives (Basic). */
function tierOf(caller: Caller): Tier {
  if (caller.kind !== "premium") return caller.kind;
  return caller.plan ?? "basic";
}

export function isPremiumFormat(id: FormatId): boolean {
  return PREMIUM_ONLY.has(id);
}

export function canDownload(caller: Caller, id: FormatId): boolean {
  return TIERS[tierOf(caller)].premiumFormats || !PREMIUM_ONLY.has(id);
}

/** Whether the per-IP fair-use limit (downloads per hour) applies to this caller. */
export function fairUseApplies(caller: Caller): boolean {
  return TIERS[tierOf(caller)].fairUse;
}
