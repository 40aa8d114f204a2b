/**
 * SponsorBlock's crowd-sourced segments of a YouTube video (issue 33 §4): sponsor reads,
 * self-promotion, interaction reminders, intros and outros, to be cut out of a download or written
 * as its chapters. `SPONSORBLOCK_API_URL` names the API (default its public server). The video is
 * asked for by the first four hex digits of its id's SHA-256 (the API's privacy-preserving form:
 * the server answers for every video sharing the prefix and never learns which one we wanted).
 *
 * The request goes through the guarded outbound fetch; the configured base is operator
 * configuration (a mirror may sit on a private network), trusted for its first hop like the Data
 * API's. A download never waits on SponsorBlock for long: each request has a short timeout, a
 * failure rests the API for a while (answers are null meanwhile, at once), concurrent asks for one
 * video share one request, and answers are kept for half an hour.
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import type { OutboundFetch } from "../../outbound/outbound-fetch.ts";
import { SPONSORBLOCK_CATEGORIES, type SkipSegment, type SponsorCategory } from "../../media/sponsorblock/segments.ts";

export { mergeSpans, SPONSORBLOCK_CATEGORIES, type SkipSegment, type SponsorCategory } from "../../media/sponsorblock/segments.ts";

export const DEFAULT_SPONSORBLOCK_API_URL = "https://sponsor.ajay.app";

export interface SponsorBlock {
  /**
   * The video's segments in `categories`, sorted by start; [] when it has none; null when the API
   * could not tell in time (down, slow, resting, or an answer we could not read).
   */
  segmentsFor(videoId: string, categories: readonly SponsorCategory[], signal?: AbortSignal): Promise<SkipSegment[] | null>;
}

/** a request longer than this: the download goes on without segments */
const DEFAULT_TIMEOUT_MS = 3000;
/** segments are voted on and added over time; half an hour old is fresh enough */
const DEFAULT_TTL_MS = 30 * 60 * 1000;
/** after a failure, asks answer null at once for this long */
const DEFAULT_REST_MS = 60 * 1000;
const DEFAULT_MAX_ENTRIES = 2000;
/** an answer for a four-digit prefix lists a few videos; a megabyte is far beyond any real one */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** segments kept per video: real videos have a handful */
const MAX_SEGMENTS = 100;

const segmentSchema = z.object({
  category: z.string(),
  actionType: z.string().optional(),
  segment: z.tuple([z.number(), z.number()]),
});
const answerSchema = z.array(z.object({ videoID: z.string(), segments: z.array(z.unknown()) }));

const isCategory = (c: string): c is SponsorCategory => (SPONSORBLOCK_CATEGORIES as readonly string[]).includes(c);

/** the segments of `videoId` in an answer: skips of a known category, within sane bounds */
export function segmentsOfAnswer(answer: unknown, videoId: string): SkipSegment[] {
  const parsed = answerSchema.safeParse(answer);
  if (!parsed.success) throw new Error("unreadable SponsorBlock answer");
  const entry = parsed.data.find((v) => v.videoID === videoId);
  const out: SkipSegment[] = [];
  for (const raw of entry?.segments ?? []) {
    const s = segmentSchema.safeParse(raw);
    if (!s.success || !isCategory(s.data.category)) continue;
    // "skip" is the default action; "mute", "chapter", "poi" and "full" are not spans to cut
    if (s.data.actionType !== undefined && s.data.actionType !== "skip") continue;
    const [start, end] = s.data.segment;
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end <= start) continue;
    out.push({ category: s.data.category, start, end });
    if (out.length === MAX_SEGMENTS) break;
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

function endpointOf(baseUrl: string, videoId: string): string {
  const url = new URL(baseUrl);
  const prefix = createHash("sha256").update(videoId).digest("hex").slice(0, 4);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/api/skipSegments/${prefix}`;
  url.search = "";
  url.searchParams.set("categories", JSON.stringify(SPONSORBLOCK_CATEGORIES));
  url.searchParams.set("actionTypes", JSON.stringify(["skip"]));
  return url.toString();
}

export function createSponsorBlock(opts: {
  baseUrl: string;
  fetch: OutboundFetch;
  logger?: Logger;
  timeoutMs?: number;
  ttlMs?: number;
  restMs?: number;
  maxEntries?: number;
  now?: () => number;
}): SponsorBlock {
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const ttlMs = opts.ttlMs ?? DEFAULT_TTL_MS;
  const restMs = opts.restMs ?? DEFAULT_REST_MS;
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const cache = new Map<string, { segments: SkipSegment[]; until: number }>();
  const inFlight = new Map<string, Promise<SkipSegment[] | null>>();
  let restingUntil = 0;

  async function ask(videoId: string): Promise<SkipSegment[] | null> {
    try {
      const res = await opts.fetch(endpointOf(opts.baseUrl, videoId), {
        trusted: true,
        timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
        maxBytes: MAX_ANSWER_BYTES,
        headers: { accept: "application/json" },
      });
      // 404: no video with this prefix has segments
      const segments = res.status === 404 ? [] : res.ok ? segmentsOfAnswer(await res.json(), videoId) : null;
      if (segments === null) throw new Error(`SponsorBlock answered ${res.status}`);
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      cache.set(videoId, { segments, until: now() + ttlMs });
      return segments;
    } catch (err) {
      restingUntil = now() + restMs;
      opts.logger?.warn({ err: (err as Error).message, restMs }, "SponsorBlock unavailable: downloads go on without its segments for a while");
      return null;
    }
  }

  return {
    async segmentsFor(videoId, categories, signal) {
      if (signal?.aborted) return null;
      const wanted = (all: SkipSegment[]) => all.filter((s) => categories.includes(s.category));
      const cached = cache.get(videoId);
      if (cached && cached.until > now()) return wanted(cached.segments);
      if (now() < restingUntil) return null;
      let pending = inFlight.get(videoId);
      if (!pending) {
        pending = ask(videoId).finally(() => inFlight.delete(videoId));
        inFlight.set(videoId, pending);
      }
      // a caller that gives up (its download ended) does not cancel the shared request
      const aborted = signal ? new Promise<null>((r) => signal.addEventListener("abort", () => r(null), { once: true })) : null;
      const all = await (aborted ? Promise.race([pending, aborted]) : pending);
      return all === null ? null : wanted(all);
    },
  };
}
