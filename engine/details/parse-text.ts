/**
 * Reads the human text InnerTube's `next` response carries instead of numbers
 * ("23.2K subscribers", "12,916 views", "Jun 3, 2026", "28 Jan 2015", "Premiered Jun 3, 2026").
 */

/** "23.2K subscribers" → 23200, "1.5M" → 1500000, "12,916 views" → 12916; null when no number. */
export function parseAbbreviatedCount(text: string | null | undefined): number | null {
  if (!text) return null;
  const m = /(\d[\d,.\s]*)\s*([KMB])?/i.exec(text.replace(/\u00a0/g, " "));
  if (!m) return null;
  const suffix = m[2]?.toUpperCase();
  const digits = m[1]!.trim();
  // "12,916" groups thousands; "23.2" is a decimal (only ever followed by a K/M/B suffix).
  const n = suffix ? Number(digits.replace(/,/g, ".").replace(/\s/g, "")) : Number(digits.replace(/[,.\s]/g, ""));
  if (!Number.isFinite(n)) return null;
  const factor = suffix === "K" ? 1e3 : suffix === "M" ? 1e6 : suffix === "B" ? 1e9 : 1;
  return Math.round(n * factor);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** A calendar date in "Jun 3, 2026" or "3 Jun 2026" form (any prefix such as "Premiered") → UTC Date. */
export function parseDateText(text: string | null | undefined): Date | null {
  if (!text) return null;
  const t = text.replace(/\u00a0/g, " ");
  let m = /([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})/.exec(t);
  let month: string | undefined, day: string | undefined, year: string | undefined;
  if (m) [, month, day, year] = m;
  else {
    m = /(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?,?\s+(\d{4})/.exec(t);
    if (m) [, day, month, year] = m;
  }
  if (!month || !day || !year) {
    const iso = /(\d{4})-(\d{2})-(\d{2})/.exec(t);
    return iso ? new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]))) : null;
  }
  const mi = MONTHS.indexOf(month.toLowerCase());
  if (mi < 0) return null;
  return new Date(Date.UTC(Number(year), mi, Number(day)));
}
