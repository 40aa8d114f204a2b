import { holds, limitOf, type PlanId } from "#common/plans.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";
import { formatsOfPlan } from "#app/modules/dashboard/plan-formats.server.ts";
import type { PlaylistPlan } from "./playlist-plan.ts";

/** The playlist card's offer for a plan; a visitor without an account has the free plan's formats. */
export function playlistPlanOf(plan: PlanId | null): PlaylistPlan {
  const holder = plan ?? "anonymous";
  const canBulk = holds(holder, "bulkDownloads");
  return {
    canBulk,
    maxLinks: canBulk ? (limitOf(holder, "linksPerBulkJob") ?? 0) : 0,
    formats: formatsOfPlan(plan ?? "free"),
  };
}

/** What the downloader offers a plan: the playlist card's offer, and whether it may choose the subtitles' language. */
export interface DownloaderOffer {
  playlistPlan: PlaylistPlan;
  subtitleLanguages: boolean;
}

export function downloaderOfferOf(plan: PlanId | null): DownloaderOffer {
  return { playlistPlan: playlistPlanOf(plan), subtitleLanguages: holds(plan ?? "anonymous", "subtitleLanguages") };
}

/**
 * The offer for whoever sent the request. Visitors cost no query (no session cookie); a failing
 * lookup gives the visitor's offer, and the API still decides when the ZIP or a language is asked for.
 */
export async function downloaderOfferFor(
  services: Parameters<typeof viewerFromCookie>[0] & { logger: { warn: (obj: object, msg: string) => void } },
  request: Request,
): Promise<DownloaderOffer> {
  try {
    const viewer = await viewerFromCookie(services, request.headers.get("cookie"));
    return downloaderOfferOf(viewer?.plan.plan ?? null);
  } catch (err) {
    services.logger.warn({ err }, "home: plan lookup failed, the downloader offers a visitor's rights");
    return downloaderOfferOf(null);
  }
}
