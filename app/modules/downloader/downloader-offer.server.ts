import { holds, limitOf, type PlanId } from "#common/plans.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";
import { formatsOfPlan } from "#app/modules/dashboard/plan-formats.server.ts";
import { downloaderProfilesOf } from "#app/modules/profiles/profiles-view.server.ts";
import type { DownloadProfileChoice, PlaylistPlan } from "./downloader-offer.ts";

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

/**
 * What the downloader offers a plan: the playlist card's offer, whether it may choose the
 * subtitles' language, and the viewer's download profiles (Ultimate; none for anyone else).
 */
export interface DownloaderOffer {
  playlistPlan: PlaylistPlan;
  subtitleLanguages: boolean;
  profiles: DownloadProfileChoice[];
}

export function downloaderOfferOf(plan: PlanId | null, profiles: DownloadProfileChoice[] = []): DownloaderOffer {
  return { playlistPlan: playlistPlanOf(plan), subtitleLanguages: holds(plan ?? "anonymous", "subtitleLanguages"), profiles };
}

/**
 * The offer for whoever sent the request. Visitors cost no query (no session cookie); a failing
 * lookup gives the visitor's offer, and the API still decides when the ZIP or a language is asked for.
 * The profiles are read for plans with them only; when they cannot be, the row is left out.
 */
export async function downloaderOfferFor(
  services: Parameters<typeof viewerFromCookie>[0] & { logger: { warn: (obj: object, msg: string) => void } },
  request: Request,
): Promise<DownloaderOffer> {
  try {
    const viewer = await viewerFromCookie(services, request.headers.get("cookie"));
    if (!viewer) return downloaderOfferOf(null);
    const profiles = await downloaderProfilesOf(services.db, { userId: viewer.user.id, plan: viewer.plan.plan }).catch((err: unknown) => {
      services.logger.warn({ err }, "home: download profiles unavailable, the downloader offers none");
      return [];
    });
    return downloaderOfferOf(viewer.plan.plan, profiles);
  } catch (err) {
    services.logger.warn({ err }, "home: plan lookup failed, the downloader offers a visitor's rights");
    return downloaderOfferOf(null);
  }
}
