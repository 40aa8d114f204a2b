/**
 * What each plan entitles its holder to: the one table (decision 043). The engine enforces it
 * (engine/entitlements.ts), the app shows it (plan cards, dashboard, ads), docs/api.md states it,
 * and app/modules/billing/plan-rights.test.ts fails when any of them disagrees. It lives in
 * common/ because the plan cards render it in the browser, which may not import the engine.
 * A new right is one line in RIGHTS, its id in the plans that hold it, and its enforcement.
 */

/** The plans, lowest first (a user holding several subscriptions gets the highest). */
export const PLAN_IDS = ["free", "basic", "pro", "ultimate"] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type PaidPlanId = Exclude<PlanId, "free">;
export const PAID_PLAN_IDS: readonly PaidPlanId[] = ["basic", "pro", "ultimate"];

/** Whom rights are decided for: a plan, or a visitor without an account. */
export type RightsHolder = "anonymous" | PlanId;

/** Numbers that come with a right (the issue that builds the right sets them per plan). */
export type LimitId = "linksPerBulkJob" | "requestsPerKeyPerMinute" | "jobsPerDay";

interface RightSpec {
  /** the plan-card line, or null when no card names it */
  card: string | null;
  /** enforced today; false: the card shows "Coming soon" and nothing may rely on it yet */
  built: boolean;
  /** format ids only holders of this right may download (engine/types.ts FormatId) */
  formats?: readonly string[];
  /** the limit every plan holding this right must set once the right is built */
  limit?: LimitId;
  /** the card shows the line only on a server with this setting (the right needs it to be true) */
  onlyWhen?: "accountManager";
}

export const RIGHTS = {
  adFree: { card: "Ad-free experience", built: true },
  /** the per-IP fair-use download limit (DOWNLOADS_PER_IP_PER_HOUR) does not apply */
  unlimitedDownloads: { card: "Unlimited downloads", built: true },
  fullHd: { card: "Up to 1080p quality", built: true },
  emailSupport: { card: "Email support", built: true },
  basicArticles: { card: "Basic article content", built: true },
  ultraHd: { card: "4K and 8K downloads", built: true, formats: ["mp4-1440", "mp4-2160", "mp4-4320"] },
  subtitles: { card: "Subtitles (SRT and VTT)", built: true, formats: ["srt", "vtt"] },
  /** choosing the subtitle language (DESIGN §5 `language`), auto-translated ones included */
  subtitleLanguages: { card: null, built: true },
  scheduledDownloads: { card: "Scheduled downloads", built: true, limit: "jobsPerDay" },
  /** a signed-in member's contact message is stored and mailed marked priority */
  prioritySupport: { card: "Priority support", built: true },
  premiumArticles: { card: "Full premium articles", built: true },
  bulkDownloads: { card: "Bulk downloads", built: true, limit: "linksPerBulkJob" },
  apiAccess: { card: "API access", built: true, limit: "requestsPerKeyPerMinute" },
  downloadProfiles: { card: "Custom download profiles", built: true },
  whiteLabel: { card: "White-label option", built: true },
  /** Ultimate members' messages go to a named address (SUPPORT_ULTIMATE_EMAIL), when the server has one */
  accountManager: { card: "Dedicated account manager", built: true, onlyWhen: "accountManager" },
  /** the terms let Ultimate members use the Service in their business (terms-sections.tsx "ultimate") */
  commercialUse: { card: "Commercial usage rights", built: true },
} as const satisfies Record<string, RightSpec>;

export type RightId = keyof typeof RIGHTS;
/** The format ids the table names (the engine checks they are its FormatIds). */
export type GatedFormatId = { [K in RightId]: (typeof RIGHTS)[K] extends { formats: readonly (infer F)[] } ? F : never }[RightId];

interface PlanSpec {
  name: string;
  /** the price shown, in US dollars a month; what Stripe charges is the STRIPE_PRICE_* price */
  monthlyPrice: number | null;
  /** a plan whose every right (and limit) this one has too: its card says "Everything in …" */
  includes: PaidPlanId | null;
  /** the rights it adds, in the order its plan card lists them */
  adds: readonly RightId[];
  limits: Partial<Record<LimitId, number>>;
}

export const PLANS: Record<PlanId, PlanSpec> = {
  free: { name: "Free", monthlyPrice: null, includes: null, adds: ["fullHd", "emailSupport", "basicArticles"], limits: {} },
  basic: {
    name: "Basic",
    monthlyPrice: 4.99,
    includes: null,
    adds: ["adFree", "unlimitedDownloads", "fullHd", "emailSupport", "basicArticles"],
    limits: {},
  },
  pro: {
    name: "Pro",
    monthlyPrice: 9.99,
    includes: "basic",
    adds: ["ultraHd", "subtitles", "subtitleLanguages", "scheduledDownloads", "prioritySupport", "premiumArticles"],
    limits: { jobsPerDay: 20 },
  },
  ultimate: {
    name: "Ultimate",
    monthlyPrice: 19.99,
    includes: "pro",
    adds: ["bulkDownloads", "apiAccess", "downloadProfiles", "whiteLabel", "accountManager", "commercialUse"],
    limits: { jobsPerDay: 100, linksPerBulkJob: 50, requestsPerKeyPerMinute: 60 },
  },
};

/** A visitor has a free account's rights: an account adds a download history, not rights. */
const VISITOR_PLAN: PlanId = "free";

export function isPaidPlanId(value: unknown): value is PaidPlanId {
  return typeof value === "string" && (PAID_PLAN_IDS as readonly string[]).includes(value);
}

function planOf(holder: RightsHolder): PlanId {
  return holder === "anonymous" ? VISITOR_PLAN : holder;
}

/** Every right a holder has, its plan's own and those of the plans it includes. */
export function rightsOf(holder: RightsHolder): RightId[] {
  const plan = PLANS[planOf(holder)];
  const inherited = plan.includes ? rightsOf(plan.includes) : [];
  return [...new Set([...inherited, ...plan.adds])];
}

export function holds(holder: RightsHolder, right: RightId): boolean {
  return rightsOf(holder).includes(right);
}

/** A limit of a right the holder has, its own plan's or an included plan's; null when unset. */
export function limitOf(holder: RightsHolder, limit: LimitId): number | null {
  const plan = PLANS[planOf(holder)];
  return plan.limits[limit] ?? (plan.includes ? limitOf(plan.includes, limit) : null);
}

/** The right a format needs, or undefined for a format everyone may download. */
export function rightForFormat(formatId: string): RightId | undefined {
  return (Object.keys(RIGHTS) as RightId[]).find((id) => ((RIGHTS[id] as RightSpec).formats ?? []).includes(formatId));
}

/** Every format that needs a right (the premium formats). */
export function gatedFormats(): GatedFormatId[] {
  return Object.values(RIGHTS as Record<RightId, RightSpec>).flatMap((r) => (r.formats ?? []) as GatedFormatId[]);
}

export function mayDownload(holder: RightsHolder, formatId: string): boolean {
  const right = rightForFormat(formatId);
  return right === undefined || holds(holder, right);
}

/** The paid plans that hold a right, lowest first. */
export function paidPlansWith(right: RightId): PaidPlanId[] {
  return PAID_PLAN_IDS.filter((id) => holds(id, right));
}
