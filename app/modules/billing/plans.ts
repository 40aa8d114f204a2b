/**
 * The app's view of the plans (spec §2 "Premium", §3): ids and rights come from the one table
 * in common/plans.ts (decision 043). Prices are shown from there; what Stripe charges comes from
 * the price ids configured on the server (STRIPE_PRICE_*), never from the browser.
 */
import { gatedFormats, holds, mayDownload, PLAN_IDS, type PlanId } from "#common/plans.ts";

export { isPaidPlanId, PAID_PLAN_IDS, type PaidPlanId, type PlanId } from "#common/plans.ts";

/** What a plan entitles its holder to, decided on the server (issue 9 §4). */
export interface Entitlements {
  /** 1440p, 2160p, 4320p and SRT/VTT subtitles */
  premiumFormats: boolean;
  /** no ad slot is rendered */
  adFree: boolean;
  /** the per-IP/per-user fair-use download limit does not apply */
  unlimitedDownloads: boolean;
}

function entitlementsOf(plan: PlanId): Entitlements {
  return {
    premiumFormats: gatedFormats().every((id) => mayDownload(plan, id)),
    adFree: holds(plan, "adFree"),
    unlimitedDownloads: holds(plan, "unlimitedDownloads"),
  };
}

export const ENTITLEMENTS = Object.fromEntries(PLAN_IDS.map((id) => [id, entitlementsOf(id)])) as Record<PlanId, Entitlements>;
