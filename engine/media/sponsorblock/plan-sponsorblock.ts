/**
 * SponsorBlock in a format's plan (issue 33 §4, docs/decisions/065): the segments of a YouTube
 * video, fetched when its download opens, either cut out of the file (an ffmpeg filter that drops
 * their frames and samples, so the file is re-encoded) or written as chapters of it (the video's own
 * chapters split at the segments' edges, one chapter per segment), through the chapters of
 * docs/decisions/064.
 */
import { EngineError } from "../../errors.ts";
import type { Chapter, FormatId, MediaPlan, PlanCut, ResolvedMedia } from "../../types.ts";
import { mergeSpans, type SkipSegment, type SponsorCategory } from "./segments.ts";
import type { MediaOptions } from "../options/media-options.ts";

type Span = PlanCut;

interface Sized {
  plan: MediaPlan;
  size: { bytes: number | null; estimated: boolean };
}

/** a segment's chapter title */
export const CATEGORY_TITLES: Record<SponsorCategory, string> = {
  sponsor: "Sponsor",
  selfpromo: "Self-promotion",
  interaction: "Interaction reminder",
  intro: "Intro",
  outro: "Outro",
};
/** the title of a stretch between segments when the video has no chapters of its own */
const BETWEEN_TITLE = "Video";
/** pieces shorter than this are no chapter and no cut (a frame is about 17 to 40 ms) */
const MIN_SPAN = 0.01;
/** as in chapters.ts: ffmpeg takes them in one argument */
const MAX_CHAPTERS = 250;

/** The formats SponsorBlock applies to: every video and audio file; not a thumbnail, transcript or subtitles. */
const NOT_MEDIA = new Set<FormatId>(["thumbnail-hd", "transcript", "srt", "vtt"]);

/** `sponsorblock.unavailable` for a source or format it cannot apply to (before a link is signed, and again when it opens). */
export function checkSponsorBlock(media: ResolvedMedia, id: FormatId, options: MediaOptions): void {
  const sb = options.sponsorblock;
  if (!sb) return;
  if (media.platform !== "youtube") throw new EngineError("sponsorblock.unavailable", { detail: `not a YouTube video (${media.platform})` });
  if (NOT_MEDIA.has(id)) throw new EngineError("sponsorblock.unavailable", { detail: `format ${id}` });
  // chapters ride with the tags (docs/decisions/064): a bare file has none to write them into
  if (sb.action === "chapters" && !options.tags) throw new EngineError("sponsorblock.unavailable", { detail: "chapters in a bare file (tags: false)" });
}

/** Spans clamped to `[from, to)` and moved onto a timeline starting at `from`. */
function within(spans: readonly Span[], from: number, to: number): Span[] {
  return spans
    .map((s) => ({ start: Math.max(s.start, from) - from, end: Math.min(s.end, to) - from }))
    .filter((s) => s.end - s.start >= MIN_SPAN);
}

/**
 * The video's chapters with SponsorBlock's segments: each merged span of segments a chapter named
 * after its categories, the stretches between keeping the video's own chapter titles (or "Video").
 */
export function sponsorChapters(own: readonly Chapter[] | undefined, segments: readonly SkipSegment[], duration: number): Chapter[] {
  const merged: Array<Span & { title: string }> = [];
  for (const s of [...segments].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    const title = CATEGORY_TITLES[s.category];
    if (last && s.start <= last.end) {
      last.end = Math.max(last.end, s.end);
      if (!last.title.split(", ").includes(title)) last.title += `, ${title}`;
    } else merged.push({ start: s.start, end: s.end, title });
  }
  const spans = merged
    .map((s) => ({ ...s, start: Math.max(0, s.start), end: Math.min(duration, s.end) }))
    .filter((s) => s.end - s.start >= MIN_SPAN);
  const base = own && own.length > 0 ? own : [{ title: BETWEEN_TITLE, start: 0, end: duration }];
  const out: Chapter[] = [];
  const between = (from: number, to: number) => {
    for (const c of base) {
      const start = Math.max(c.start, from);
      const end = Math.min(c.end, to);
      if (end - start >= MIN_SPAN) out.push({ title: c.title, start, end });
    }
  };
  let at = 0;
  for (const s of spans) {
    between(at, s.start);
    out.push({ title: s.title, start: s.start, end: s.end });
    at = s.end;
  }
  between(at, duration);
  return out.slice(0, MAX_CHAPTERS);
}

/** The spans to cut on the output's timeline (a clip's, when there is one), merged and sorted. */
export function cutSpans(plan: MediaPlan, segments: readonly SkipSegment[], duration: number): Span[] {
  const clip = plan.op === "remux" || plan.op === "transcode" ? plan.clip : undefined;
  return within(mergeSpans(segments), clip?.start ?? 0, clip?.end ?? duration);
}

/** Seconds removed by `spans` before time `t` of the uncut timeline (a time inside a span maps to its start). */
export function removedBefore(spans: readonly Span[], t: number): number {
  return spans.reduce((sum, s) => sum + Math.max(0, Math.min(t, s.end) - s.start), 0);
}

/** Chapters on the cut timeline: each time moved back by what was cut before it; chapters wholly cut are gone. */
export function cutChapters(chapters: readonly Chapter[], spans: readonly Span[]): Chapter[] {
  return chapters
    .map((c) => ({ title: c.title, start: c.start - removedBefore(spans, c.start), end: c.end - removedBefore(spans, c.end) }))
    .filter((c) => c.end - c.start >= MIN_SPAN);
}

/** The plan that cuts `spans` out: ffmpeg-made (a file sent as it is becomes a remux of it), re-encoded, its size an estimate. */
export function sponsorCutPlan(sized: Sized, spans: readonly Span[], duration: number): Sized {
  const { plan, size } = sized;
  if (spans.length === 0) return sized;
  const total = (plan.op === "remux" || plan.op === "transcode" ? plan.clip?.duration : undefined) ?? duration;
  const removed = spans.reduce((sum, s) => sum + s.end - s.start, 0);
  const share = total > 0 ? Math.max(0, total - removed) / total : 1;
  const scale = (bytes: number | null) => (bytes === null ? null : Math.round(bytes * share));
  const cuts = spans.map((s) => ({ start: s.start, end: s.end }));
  let cut: MediaPlan;
  if (plan.op === "transcode" || plan.op === "remux") cut = { ...plan, cuts };
  else if (plan.op === "passthrough") {
    const container = plan.extension === "webm" ? "webm" : plan.extension === "m4a" ? "m4a" : "mp4";
    cut = { op: "remux", inputs: [plan.input], container, mimeType: plan.mimeType, extension: plan.extension, bytes: plan.bytes, cuts };
  } else return sized;
  return { plan: { ...cut, bytes: scale(cut.bytes) }, size: { bytes: scale(size.bytes), estimated: size.bytes !== null } };
}

/** A plan's chapters (ffmpeg's, or those of our own tag) moved onto the cut timeline. */
export function withCutChapters(sized: Sized): Sized {
  const { plan } = sized;
  if ((plan.op !== "remux" && plan.op !== "transcode") || !plan.cuts?.length) return sized;
  const cuts = plan.cuts;
  return {
    ...sized,
    plan: {
      ...plan,
      ...(plan.chapters ? { chapters: cutChapters(plan.chapters, cuts) } : {}),
      ...(plan.tags?.chapters ? { tags: { ...plan.tags, chapters: cutChapters(plan.tags.chapters, cuts) } } : {}),
    },
  };
}

/**
 * ffmpeg's expression true while `t` is in none of the spans (each `[start, end)`, so a frame on an
 * edge is kept once, not dropped twice; a span from 0 takes anything before 0 too), quoted for a filtergraph.
 */
function keepExpr(spans: readonly Span[]): string {
  const inSpan = (s: Span) => (s.start <= 0 ? `lt(t,${s.end.toFixed(3)})` : `gte(t,${s.start.toFixed(3)})*lt(t,${s.end.toFixed(3)})`);
  return `'not(${spans.map(inSpan).join("+")})'`;
}

/**
 * The audio filter that drops the spans' samples and closes the gaps: in frames of 64 samples
 * (about 1.5 ms), so each edge falls within that of its time, not within a codec frame (1024 or
 * 1152 samples, 21 to 26 ms).
 */
export function cutAudioFilter(spans: readonly Span[]): string {
  return `asetnsamples=n=64:p=0,aselect=${keepExpr(spans)},asetpts=N/SR/TB`;
}

/** The video filter that drops the spans' frames and closes the gaps (frames renumbered at the source's rate). */
export function cutVideoFilter(spans: readonly Span[]): string {
  return `select=${keepExpr(spans)},setpts=N/FRAME_RATE/TB`;
}

/** The output's length (`-t`) once the spans inside a clip of `duration` seconds are cut. */
export function cutDuration(duration: number, spans: readonly Span[] | undefined): number {
  return duration - (spans ?? []).reduce((sum, s) => sum + s.end - s.start, 0);
}
