/**
 * Formatting rules for video details (spec §3 and §5). Pure functions shared by every source
 * adapter (YouTube, Data API v3, generic media), so the same number always reads the same way.
 */
import type { Thumbnail } from "../types.ts";

/** Counts: below 1,000 the plain number, from 1,000 "1.2K", from 1,000,000 "1.2M" (one decimal). */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return "0";
  const n = Math.max(0, Math.floor(value));
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) {
    const k = (n / 1_000).toFixed(1);
    // 999,950 rounds to "1000.0K": read it as the next unit instead.
    return k === "1000.0" ? "1.0M" : `${k}K`;
  }
  return String(n);
}

/** "1.2M views" */
export function formatViews(value: number): string {
  return `${formatCount(value)} views`;
}

/** Subscriber count, or "Unknown" when the platform does not say (hidden or not fetched). */
export function formatSubscribers(value: number | null | undefined): string {
  return value == null || !Number.isFinite(value) ? "Unknown" : formatCount(value);
}

/** m:ss below one hour, h:mm:ss from one hour. */
export function formatDuration(totalSeconds: number): string {
  const s = Number.isFinite(totalSeconds) ? Math.max(0, Math.floor(totalSeconds)) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const ss = String(sec).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

const shortDate = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** en-US short date in UTC ("Jun 3, 2026"); "" when the input is not a date. */
export function formatPublishedDate(input: string | number | Date | null | undefined): string {
  if (input == null || input === "") return "";
  const date = input instanceof Date ? input : new Date(input);
  return Number.isNaN(date.getTime()) ? "" : shortDate.format(date);
}

export const DESCRIPTION_LIMIT = 160;

/**
 * At most the first 160 characters (code points, so an emoji is never cut in half). A longer text
 * is cut at the last space that leaves room for an ellipsis, never inside a word (a single word
 * longer than half the limit is cut where the limit falls).
 */
export function truncateDescription(text: string | null | undefined): string {
  if (!text) return "";
  const chars = Array.from(text);
  if (chars.length <= DESCRIPTION_LIMIT) return text;
  const head = chars.slice(0, DESCRIPTION_LIMIT - 1);
  // the next character after the kept part: a space there means the cut already falls between words
  const atBoundary = /\s/.test(chars[DESCRIPTION_LIMIT - 1]!);
  const space = atBoundary ? head.length : head.findLastIndex((c) => /\s/.test(c));
  const kept = space > DESCRIPTION_LIMIT / 2 ? head.slice(0, space) : head;
  return `${kept.join("").replace(/[\s,.;:!?\-–—]+$/u, "")}…`;
}

/** Spec §5: more than 1000 subscribers AND more than 4000 views. Unknown counts are not monetized. */
export function isMonetized(subscribers: number | null | undefined, views: number | null | undefined): boolean {
  return (subscribers ?? 0) > 1000 && (views ?? 0) > 4000;
}

export const THUMBNAIL_PREFERENCE = ["maxres", "high", "medium", "default"] as const;

type ThumbnailMap = Partial<Record<string, { url?: string } | undefined>>;

/**
 * Best thumbnail of maxres, high, medium, default. Accepts the Data API's map
 * (`{maxres:{url}, high:{url}, …}`) or our `Thumbnail[]` with `name`s. "" when none exists.
 */
export function pickBestThumbnail(thumbnails: ThumbnailMap | Thumbnail[] | null | undefined): string {
  if (!thumbnails) return "";
  if (Array.isArray(thumbnails)) {
    for (const name of THUMBNAIL_PREFERENCE) {
      const hit = thumbnails.find((t) => t.name === name && t.url);
      if (hit) return hit.url;
    }
    return "";
  }
  for (const name of THUMBNAIL_PREFERENCE) {
    const url = thumbnails[name]?.url;
    if (url) return url;
  }
  return "";
}

/**
 * ISO 8601 duration as used by the Data API (`PT1H2M3S`, `P1DT2H`, `PT45.5S`) to whole seconds.
 * Returns 0 for live/unknown ("P0D") and for anything that is not a duration.
 */
export function parseIsoDuration(input: string | null | undefined): number {
  if (!input) return 0;
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(input.trim());
  if (!m) return 0;
  const [, w, d, h, min, s] = m;
  const seconds =
    Number(w ?? 0) * 604800 + Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0);
  return Math.floor(seconds);
}

/** Parses counts as the platforms send them ("12345", 12345); null when absent or not a number. */
export function parseCount(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || value.trim() === "") return null;
  const n = Number(value.replace(/[,\s]/g, ""));
  return Number.isFinite(n) ? n : null;
}
