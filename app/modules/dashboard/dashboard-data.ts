/** What the dashboard's loader hands its components (plain, serialisable values). */

export const DASHBOARD_TABS = [
  { value: "downloads", label: "Downloads" },
  { value: "history", label: "History" },
  { value: "scheduled", label: "Scheduled" },
  { value: "bulk", label: "Bulk" },
  { value: "api", label: "API" },
  { value: "profiles", label: "Profiles" },
  { value: "settings", label: "Settings" },
] as const;

export type DashboardTab = (typeof DASHBOARD_TABS)[number]["value"];

export function dashboardTabOf(value: string | null): DashboardTab {
  return DASHBOARD_TABS.some((t) => t.value === value) ? (value as DashboardTab) : "downloads";
}

export interface PlanSummary {
  /** the plan's name (common/plans.ts) */
  name: string;
  /** ISO dates */
  startDate: string | null;
  nextBillingDate: string | null;
  /** cancelled at period end: the plan ends on nextBillingDate instead of renewing */
  endsAtPeriodEnd: boolean;
}

export interface HistoryView {
  rows: Array<{ id: string; title: string; formatLabel: string; bytes: number | null; status: "done" | "failed"; date: string }>;
  page: number;
  pageCount: number;
  total: number;
}

/** The Scheduled tab: the form's choices and the user's jobs (app/modules/jobs). */
export interface ScheduledView {
  /** the plan has scheduled downloads */
  canSchedule: boolean;
  /** why not, naming the plans that have it */
  upgradeText: string;
  /** jobs a day the plan allows */
  perDay: number | null;
  formats: Array<{ id: string; label: string }>;
  jobs: Array<{
    id: string;
    status: "scheduled" | "queued" | "running" | "done" | "failed" | "canceled";
    url: string;
    title: string | null;
    /** a ZIP job's files so far: "3 links", "2 of 3 files, 1 failed" (null for one file) */
    filesText: string | null;
    formatLabel: string;
    runAt: string;
    percent: number | null;
    bytes: number | null;
    filename: string | null;
    downloadUrl: string | null;
    expiresAt: string | null;
    error: string | null;
  }>;
}

/** The Bulk tab: several links as one ZIP (issue 30 §3). */
export interface BulkView {
  /** the plan has bulk downloads */
  canBulk: boolean;
  /** why not, naming the plan that has it */
  upgradeText: string;
  /** links one ZIP may hold on this plan */
  maxLinks: number;
  formats: Array<{ id: string; label: string }>;
  /** the user's download profiles (Ultimate), offered beside the format; none: no choice shown */
  profiles: Array<{ id: string; name: string; format: string }>;
}

/** The API tab: the user's API keys (never a key itself) and how to call the API (issue 31 §1). */
export interface ApiKeysView {
  /** the plan has API access */
  canUse: boolean;
  /** why not, naming the plan that has it */
  upgradeText: string;
  keys: Array<{ id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; requestsThisMonth: number }>;
  /** keys an account may hold at once */
  maxKeys: number;
  /** requests a key may make a minute on this plan */
  perMinute: number | null;
  /** the site's public address, for the example */
  siteUrl: string;
  /** the white label (a plan that has it): the sender name mails about API jobs go under, and the account's name used until one is set */
  whiteLabel: { senderName: string | null; accountName: string } | null;
}

/**
 * What the API tab's forms answer. A new key is in a create's answer only: the one time it is
 * shown (it is never in the loader's data or a URL).
 */
export type ApiKeyFormResult =
  | { ok: true; title: string; message: string; intent: "create-key" | "revoke-key" | "white-label"; createdKey: { id: string; name: string; key: string } | null }
  | { ok: false; title: string; message: string; fields: never[]; intent: "create-key" | "revoke-key" | "white-label" };

/** The Profiles tab: the user's download profiles and the form's choices (issue 31 §2). */
export interface ProfilesView {
  /** the plan has custom download profiles */
  canUse: boolean;
  /** why not, naming the plan that has them */
  upgradeText: string;
  profiles: Array<{ id: string; name: string; format: string; formatLabel: string; language: string | null; filenameTemplate: string | null }>;
  /** profiles an account may hold at once */
  maxProfiles: number;
  formats: Array<{ id: string; label: string }>;
}

/** What the Profiles tab's forms answer; a refused create keeps what was typed (the form may have been posted without JavaScript). */
export type ProfileFormResult =
  | { ok: true; title: string; message: string; intent: "create-profile" | "delete-profile" }
  | {
      ok: false;
      title: string;
      message: string;
      fields: never[];
      intent: "create-profile" | "delete-profile";
      /** a refused create's fields as they were posted */
      typed: { name: string; format: string; language: string; filenameTemplate: string } | null;
    };

/** en-US short date ("Jun 3, 2026"), in UTC so the server's and the browser's render agree. */
export function shortDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
}

/** The dashboard URL for a tab (and a history page). */
export function tabHref(tab: DashboardTab, page?: number): string {
  const params = new URLSearchParams({ tab });
  if (page && page > 1) params.set("page", String(page));
  return `/dashboard?${params.toString()}`;
}
