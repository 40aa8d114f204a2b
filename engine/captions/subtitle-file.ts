/**
 * The subtitle file ffmpeg reads for a download (docs/decisions/069): the caption track's cues on
 * the output's timeline, as SRT. A clip starts the timeline at its start (ffmpeg's output starts
 * there, whichever keyframe the picture is copied from) and ends it at its length; SponsorBlock's
 * cut spans are closed up as the frames are, so every cue stays with the picture it belongs to.
 */
import { fetchCues, trackUrl } from "./fetch-transcript.ts";
import type { Cue } from "./parse-timedtext.ts";
import { timed, toSrt } from "./render.ts";
import { EngineError, isEngineError } from "../errors.ts";
import type { OutboundFetch } from "../outbound/outbound-fetch.ts";
import type { CaptionTrack, MediaPlan, PlanClip, PlanCut } from "../types.ts";
import { removedBefore } from "../media/sponsorblock/plan-sponsorblock.ts";

/** A cue shorter than this once trimmed is left out: it would show for less than a frame at 60 fps. */
const MIN_CUE_MS = 17;

/** Cues on the output's timeline: shifted to the clip's start and trimmed to its length, then moved back by what the cuts removed before them. */
export function cuesOnOutput(cues: readonly Cue[], clip?: Pick<PlanClip, "start" | "duration">, cuts?: readonly PlanCut[]): Cue[] {
  const fromMs = (clip?.start ?? 0) * 1000;
  const lengthMs = clip ? clip.duration * 1000 : Infinity;
  // ends first (a cue without one, or overlapping the next, as the SRT download has them), on the source's timeline
  const onCut = (ms: number) => Math.round(ms - removedBefore(cuts ?? [], ms / 1000) * 1000);
  const out: Cue[] = [];
  for (const cue of timed(cues)) {
    const start = Math.max(0, cue.startMs - fromMs);
    const end = Math.min(lengthMs, cue.endMs - fromMs);
    if (end - start < MIN_CUE_MS) continue;
    const moved = { text: cue.text, startMs: onCut(start), endMs: onCut(end) };
    // wholly inside a cut span: its picture is gone, so is the cue
    if (moved.endMs - moved.startMs >= MIN_CUE_MS) out.push(moved);
  }
  return out;
}

/** Cue text as ffmpeg's SRT reader takes it: no blank line inside a cue (it would end the cue), none empty. */
function cleanCues(cues: readonly Cue[], escape: (text: string) => string): Cue[] {
  return cues
    .map((c) => ({ ...c, text: escape(c.text.replace(/\r/g, "").replace(/\n\s*\n/g, "\n").trim()) }))
    .filter((c) => c.text !== "");
}

/**
 * libass reads `{…}` as an override block and `\` as the start of a tag: a caption's "{laughs}"
 * would vanish from a burned-in picture and "\N" break its line, so both are escaped for it.
 */
const escapeForLibass = (text: string) => text.replace(/[\\{}]/g, (c) => `\\${c}`);

/** What the gap between two cues of an MP4's track holds: one no-break space, which players draw as nothing. */
export const GAP_TEXT = "\u00a0";

/**
 * ffmpeg 5.1's fragmented MP4 muxer ends a `mov_text` cue only at the start of the next one (the
 * empty sample that ends a cue is written for the last cue alone): each cue of an MP4's track would
 * stay on screen until the next. The gaps are written as cues of their own, of no visible text, and
 * ffmpeg (which drops an empty cue) keeps them.
 */
function withGaps(cues: readonly Cue[]): Cue[] {
  const out: Cue[] = [];
  for (const [i, cue] of cues.entries()) {
    out.push(cue);
    const next = cues[i + 1];
    if (next && next.startMs > cue.endMs) out.push({ startMs: cue.endMs, endMs: next.startMs, text: GAP_TEXT });
  }
  return out;
}

/**
 * The SRT of a download's subtitles: for a burn escaped for libass; for an MP4's track (`mov_text`)
 * with its gaps written; for a WEBM's (WebVTT, each cue with its own end) as the captions say it.
 */
export function subtitleSrt(cues: readonly Cue[], form: "burn" | "mov_text" | "webvtt"): string {
  const clean = cleanCues(timed(cues), form === "burn" ? escapeForLibass : (text) => text);
  return toSrt(form === "mov_text" ? withGaps(clean) : clean);
}

/** Reads a caption track's cues for a download's subtitles: each file its own read, or the files of a chapter ZIP one read between them. */
export type ReadCues = (track: CaptionTrack, fetch: OutboundFetch, signal: AbortSignal) => Promise<Cue[]>;

/**
 * A track's cues through the guarded fetch (as an SRT download's are). A track that answers with an
 * error or no text is `subtitles.unavailable`; a refused address or a timeout keeps its own code.
 */
export const readSubtitleCues: ReadCues = async (track, fetch, signal) => {
  try {
    return await fetchCues(track, fetch, { signal });
  } catch (err) {
    if (!isEngineError(err) || err.code !== "transcript.unavailable") throw err;
    throw new EngineError("subtitles.unavailable", { detail: `the caption track could not be read: ${err.detail ?? ""}`, cause: err });
  }
};

/**
 * One read of each track for the files of one download (a chapter ZIP, docs/decisions/070): the
 * first to ask fetches it, through its guarded fetch and with its signal, and every later file takes
 * the same cues (or the same refusal). The cues are the whole track's; each file moves its own span
 * of them onto its own timeline.
 */
export function sharedCueReads(): ReadCues {
  const reads = new Map<string, Promise<Cue[]>>();
  return (track, fetch, signal) => {
    const key = trackUrl(track);
    let read = reads.get(key);
    if (!read) reads.set(key, (read = readSubtitleCues(track, fetch, signal)));
    return read;
  };
}

/**
 * A remux's subtitles, read when its download opens (`read`: by default, fetched for this file
 * alone) and written on its output's timeline; null for a plan without them.
 */
export async function fetchSubtitleFile(plan: MediaPlan, fetch: OutboundFetch, signal: AbortSignal, read: ReadCues = readSubtitleCues): Promise<{ srt: Buffer; empty: boolean } | null> {
  if (plan.op !== "remux" || !plan.subtitles) return null;
  const cues = await read(plan.subtitles.track, fetch, signal);
  const onOutput = cuesOnOutput(cues, plan.clip, plan.cuts);
  const form = plan.subtitles.mode === "burn" ? "burn" : plan.container === "webm" ? "webvtt" : "mov_text";
  return { srt: Buffer.from(subtitleSrt(onOutput, form), "utf8"), empty: onOutput.length === 0 };
}
