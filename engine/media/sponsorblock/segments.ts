/**
 * SponsorBlock's segment vocabulary (issue 33 §4), shared by the API client
 * (engine/sources/youtube/sponsorblock.ts) and the media step that cuts or marks the segments
 * (plan-sponsorblock.ts), which sits below the sources in the engine's import order.
 */

/** the categories a visitor may pick (the API knows more: music_offtopic, preview, filler…) */
export const SPONSORBLOCK_CATEGORIES = ["sponsor", "selfpromo", "interaction", "intro", "outro"] as const;
export type SponsorCategory = (typeof SPONSORBLOCK_CATEGORIES)[number];

export interface SkipSegment {
  category: SponsorCategory;
  /** seconds from the start of the video */
  start: number;
  end: number;
}

/** Overlapping or touching segments as one span each, for cutting: sorted, disjoint. */
export function mergeSpans(segments: readonly SkipSegment[]): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  for (const s of [...segments].sort((a, b) => a.start - b.start)) {
    const last = spans.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else spans.push({ start: s.start, end: s.end });
  }
  return spans;
}
