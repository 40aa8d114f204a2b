/**
 * When each legal text last changed in substance. Update the date in the same change as the
 * text: the page's "Last updated" line is generated from it.
 */
export const LEGAL_LAST_CHANGED = {
  privacyPolicy: "2026-11-27",
  termsAndConditions: "2026-11-27",
  disclaimer: "2026-11-20",
  dmca: "2026-11-20",
} as const;

/** "2026-11-20" → "November 20, 2026" (UTC, so the server and browser render the same date). */
export function formatLegalDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`formatLegalDate: not a date: ${isoDate}`);
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(date);
}
