/**
 * How many segments one link may describe (issue 27, finding 4). Each segment is kept as an
 * object with its URL while the link is resolved, cached and downloaded, so a few huge playlists
 * could exhaust a server's memory (figure: docs/performance.md). 20,000 segments are 11
 * hours at 2 s a segment, 22 at 4 s; a link past either limit is refused with a clear message.
 */
import { EngineError } from "../../errors.ts";

/** segments of one media playlist or DASH representation */
export const MAX_PLAYLIST_SEGMENTS = 20_000;
/** segments of every stream of one link together (a master playlist's variants, a manifest's representations) */
export const MAX_LINK_SEGMENTS = 100_000;

function tooMany(count: number, limit: number, what: string, url: string): EngineError {
  return new EngineError("upstream.too_large", {
    detail: `${what} of ${url} has ${count} segments (limit ${limit})`,
    message: `This video is split into more than ${limit.toLocaleString("en-US")} parts, more than this server downloads.`,
  });
}

/** Refuses one playlist (or representation) of more than MAX_PLAYLIST_SEGMENTS segments. */
export function checkPlaylistSegments(count: number, url: string): void {
  if (count > MAX_PLAYLIST_SEGMENTS) throw tooMany(count, MAX_PLAYLIST_SEGMENTS, "a playlist", url);
}

/** The segments of one link counted as its playlists come in; past MAX_LINK_SEGMENTS the link is refused. */
export function createSegmentBudget(url: string, limit = MAX_LINK_SEGMENTS): { take(count: number): void } {
  let total = 0;
  return {
    take(count) {
      total += count;
      if (total > limit) throw tooMany(total, limit, "the playlists", url);
    },
  };
}

/** How often `needle` occurs in `text` (a count before a parser builds an object per occurrence). */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Refuses an HLS playlist of too many segments before it is parsed (an 8 MB playlist can list 400,000). */
export function checkPlaylistText(text: string, url: string): void {
  checkPlaylistSegments(occurrences(text, "#EXTINF"), url);
}

/** ISO 8601 durations as MPDs write them ("PT1H2M3.5S", "P1DT2H"), in seconds; null when absent or unreadable. */
export function isoSeconds(value: string | undefined): number | null {
  const m = value ? /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value.trim()) : null;
  if (!m) return null;
  const [, d, h, min, s] = m.map((x) => Number(x ?? 0));
  return d! * 86_400 + h! * 3600 + min! * 60 + s!;
}

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`).exec(tag)?.[1];

/**
 * The segments a DASH manifest would make the parser generate, estimated from its text before
 * it runs: mpd-parser expands a SegmentTemplate's duration and a SegmentTimeline's repeat
 * counts into one object per segment, so a 1 KB manifest of "1000 hours in 0.1 s segments"
 * kept the event loop busy for minutes. Counted high (the largest timescale when one is
 * inherited), per Representation.
 */
export function checkDashText(text: string, url: string): void {
  const periods = [...text.matchAll(/<Period\b[^>]*>/g)].map((m) => isoSeconds(attr(m[0], "duration")) ?? 0);
  const mpdTag = /<MPD\b[^>]*>/.exec(text)?.[0] ?? "";
  const total = Math.max(isoSeconds(attr(mpdTag, "mediaPresentationDuration")) ?? 0, periods.reduce((a, b) => a + b, 0));
  const templates = [...text.matchAll(/<SegmentTemplate\b[^>]*>/g)].map((m) => m[0]);
  const timescales = templates.map((t) => Number(attr(t, "timescale"))).filter((n) => Number.isFinite(n) && n > 0);
  const largestTimescale = Math.max(1, ...timescales);
  let perRepresentation = 0;
  for (const t of templates) {
    const duration = Number(attr(t, "duration"));
    if (!(duration > 0)) continue;
    const timescale = Number(attr(t, "timescale")) || largestTimescale;
    perRepresentation = Math.max(perRepresentation, Math.ceil((total * timescale) / duration));
  }
  // a timeline's entries with their repeats; r="-1" repeats to the end of the period
  let timeline = 0;
  for (const m of text.matchAll(/<S\b[^>]*>/g)) {
    const r = Number(attr(m[0], "r") ?? 0);
    const d = Number(attr(m[0], "d"));
    if (r >= 0) timeline += r + 1;
    else timeline += d > 0 ? Math.ceil((total * largestTimescale) / d) : MAX_LINK_SEGMENTS + 1;
  }
  checkPlaylistSegments(Math.max(perRepresentation, timeline), url);
  const representations = Math.max(1, occurrences(text, "<Representation"));
  createSegmentBudget(url).take(perRepresentation * representations + timeline);
}
