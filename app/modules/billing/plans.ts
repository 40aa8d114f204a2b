/**
 * The three paid plans (spec §2 "Premium", §3). Prices are shown from here; what Stripe charges
 * comes from the price ids configured on the server (STRIPE_PRICE_*), never from the browser.
 */
export type PaidPlanId = "basic" | "pro" | "ultimate";
export type PlanId = "free" | PaidPlanId;

export const PAID_PLAN_IDS: readonly PaidPlanId[] = ["basic", "pro", "ultimate"];

export function isPaidPlanId(value: unknown): value is PaidPlanId {
  return typeof value === "string" && (PAID_PLAN_IDS as readonly string[]).includes(value);
}

/** What a plan entitles its holder to, decided on the server (issue 9 §4). */
export interface Entitlements {
  /** 1440p, 2160p, 4320p and SRT/VTT subtitles */
  premiumFormats: boolean;
  /** no ad slot is rendered */
  adFree: boolean;
  /** the per-IP/per-user fair-use download limit does not apply */
  unlimitedDownloads: boolean;
}

export const ENTITLEMENTS: Record<PlanId, Entitlements> = {
  free: { premiumFormats: false, adFree: false, unlimitedDownloads: false },
  basic: { premiumFormats: false, adFree: true, unlimitedDownloads: true },
  pro: { premiumFormats: true, adFree: true, unlimitedDownloads: true },
  ultimate: { premiumFormats: true, adFree: true, unlimitedDownloads: true },
};
