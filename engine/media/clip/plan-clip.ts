/**
 * A format's plan cut to a clip (issue 33 §1; docs/decisions/061). The clip is checked against
 * the source here, before any link is signed: a clip the source cannot give is a 422 with a
 * catalogue code, never the whole file. A file sent as it is becomes a remux (ffmpeg cuts it); a
 * segmented input keeps only the segments that cover the clip, so nothing else is fetched (and
 * the segments prefetched while the link is followed are the right ones).
 */
import { EngineError } from "../../errors.ts";
import type { MediaPlan, PlanClip, ResolvedMedia, SegmentRef, Transport, UpstreamStream } from "../../types.ts";
import type { MediaOptions } from "../options/media-options.ts";

interface Sized {
  plan: MediaPlan;
  size: { bytes: number | null; estimated: boolean };
}

/**
 * An end this far past the duration still means "to the end": platforms round the duration to
 * the second (YouTube's `lengthSeconds`), and a picker's last second may be a rounding above it.
 */
export const END_SLACK_SECONDS = 1;

/**
 * The segments a clip `[start, end)` touches, the index of the first of them and where it starts;
 * all of them when a duration is unknown.
 */
export function coveringSegments(segments: SegmentRef[], start: number, end: number): { segments: SegmentRef[]; first: number; offset: number } {
  if (segments.length === 0 || segments.some((s) => !(typeof s.durationSeconds === "number" && s.durationSeconds > 0))) return { segments, first: 0, offset: 0 };
  let t = 0;
  let first = -1;
  let last = segments.length - 1;
  let offset = 0;
  for (let i = 0; i < segments.length; i++) {
    const next = t + segments[i]!.durationSeconds!;
    if (first < 0 && next > start) {
      first = i;
      offset = t;
    }
    if (next >= end) {
      last = i;
      break;
    }
    t = next;
  }
  if (first < 0) return { segments: [], first: segments.length, offset: t };
  return { segments: segments.slice(first, last + 1), first, offset };
}

/** The input cut to what the clip needs, and where ffmpeg seeks in it. */
export function clipInput(stream: UpstreamStream, start: number, end: number): { stream: UpstreamStream; seek: number } {
  if (stream.transport.type !== "segments") return { stream, seek: start };
  const { segments, first, offset } = coveringSegments(stream.transport.segments, start, end);
  if (segments.length === 0) throw new EngineError("clip.out_of_range", { detail: `no segment of stream ${stream.id} reaches ${start}s` });
  const cut = { first, of: stream.transport.segments.length };
  return { stream: { ...stream, transport: { ...stream.transport, segments, cut }, contentLength: null }, seek: Math.max(0, start - offset) };
}

/**
 * A fresh manifest's segments (the URLs expired and the link was resolved again) cut the way the
 * input was: a clip's covering segments again, the reader going on from the one refused. The
 * fresh list must be the one the clip was cut from (as long, the same durations), or the input
 * is `upstream.expired`: the clip's segments cannot be found in it.
 */
export function recutSegments(input: Extract<Transport, { type: "segments" }>, fresh: SegmentRef[]): SegmentRef[] {
  const cut = input.cut;
  if (!cut) return fresh;
  const next = fresh.slice(cut.first, cut.first + input.segments.length);
  const same = (a: SegmentRef, b: SegmentRef) => Math.abs((a.durationSeconds ?? 0) - (b.durationSeconds ?? 0)) < 0.001;
  if (fresh.length !== cut.of || next.some((s, i) => !same(s, input.segments[i]!))) {
    throw new EngineError("upstream.expired", { detail: `manifest changed from ${cut.of} to ${fresh.length} segments, or their durations changed` });
  }
  return next;
}

/** The file's share of the clip: a clip's size is always an estimate (it starts at a keyframe, not at the second asked). */
function share(bytes: number | null, fraction: number): number | null {
  return bytes === null ? null : Math.max(1, Math.round(bytes * fraction));
}

/**
 * The plan for a clip of this format, or the plan unchanged when the clip is the whole file.
 * Throws `clip.unavailable` (a thumbnail or text, a source of unknown length) or `clip.out_of_range`.
 */
export function clipPlan(sized: Sized, media: ResolvedMedia, options: MediaOptions): Sized {
  const { plan, size } = sized;
  if (plan.op === "image" || plan.op === "text") throw new EngineError("clip.unavailable", { detail: `a ${plan.op} has no timeline` });
  const duration = media.details.durationSeconds;
  if (!(duration > 0)) throw new EngineError("clip.unavailable", { detail: "the source's length is unknown" });
  const start = options.start ?? 0;
  const askedEnd = options.end ?? duration;
  if (start >= duration || askedEnd > duration + END_SLACK_SECONDS || askedEnd <= start) {
    throw new EngineError("clip.out_of_range", { detail: `${start}-${askedEnd}s of ${duration}s` });
  }
  const end = Math.min(askedEnd, duration);
  if (start === 0 && end >= duration) return sized;

  const remux: Extract<MediaPlan, { op: "remux" | "transcode" }> =
    plan.op === "passthrough"
      ? { op: "remux", inputs: [plan.input], container: plan.extension === "m4a" ? "m4a" : "mp4", mimeType: plan.mimeType, extension: plan.extension, bytes: plan.bytes }
      : plan;
  const fraction = (end - start) / duration;
  const clipped = (remux.op === "remux" ? remux.inputs : [remux.input]).map((s) => clipInput(s, start, end));
  const clip: PlanClip = { start, end, seeks: clipped.map((c) => c.seek), duration: end - start, exact: options.exact === true };
  const bytes = share(remux.bytes, fraction);
  const next: MediaPlan =
    remux.op === "remux"
      ? { ...remux, inputs: clipped.map((c) => c.stream), bytes, clip }
      : { ...remux, input: clipped[0]!.stream, bytes, clip };
  return { ...sized, plan: next, size: { bytes: share(size.bytes, fraction), estimated: size.bytes !== null } };
}
