/**
 * Loudness normalisation (issue 33 §5, docs/decisions/066): MP3, M4A and AAC files evened out to
 * −14 LUFS integrated and −1 dBTP true peak (EBU R128, ffmpeg's `loudnorm`). A source short
 * enough is measured first (a first ffmpeg pass over a second fetch of its audio) and then
 * corrected by one linear gain; a longer one is corrected as it streams (one pass, dynamic).
 */
import { EngineError } from "../../errors.ts";
import type { FormatId, MediaPlan, PlanLoudness, ResolvedMedia } from "../../types.ts";

/** the target of the big streaming services */
export const TARGET_LUFS = -14;
export const TARGET_TRUE_PEAK = -1;
/**
 * The ceiling loudnorm's limiter is given: half a dB under the target, because neither the
 * limiter nor the encoder after it holds a ceiling exactly. On pink noise raised by 24 dB the
 * limiter's own output measured −0.8 dBTP for a −1 ceiling, and the AAC and MP3 encodes of it up
 * to 0 dBTP; with −1.5 the encoded files measured −0.6 (AAC 256) to −1.4 dBTP (MP3 128).
 */
export const LIMITER_TRUE_PEAK = -1.5;
/**
 * The loudness range the output may keep. loudnorm corrects by one linear gain only when the
 * source's range is within it; a wide one keeps music's dynamics (its default, 7, would compress
 * most of them), and a source wider still is evened out dynamically.
 */
export const TARGET_LRA = 20;
/**
 * Sources up to this long are measured before they are normalised: the first byte then waits for
 * one whole fetch and decode of the audio (seconds for a song; a 10-minute track is about 10 MB at
 * 128 kbps). Longer ones go in one pass, so a podcast's first byte never waits minutes.
 */
export const TWO_PASS_MAX_SECONDS = 600;
/**
 * loudnorm works at 192 kHz; the file gets the rate every MP3 and AAC player takes (as ffmpeg's
 * output rate: an `aresample` after loudnorm cannot choose a channel layout for a mono source).
 */
export const OUTPUT_SAMPLE_RATE = 48_000;

/** What the first pass measured (loudnorm's `print_format=json` "input_*" values and its offset). */
export interface LoudnessMeasure {
  integrated: number;
  truePeak: number;
  lra: number;
  threshold: number;
  offset: number;
}

const AUDIO_FORMATS = new Set<FormatId>(["mp3-320", "mp3-256", "mp3-128", "aac-256", "m4a"]);

/** Whether a format can be normalised (an encode of its audio): MP3, AAC and M4A. */
export function normalizable(format: FormatId): boolean {
  return AUDIO_FORMATS.has(format);
}

interface Sized {
  plan: MediaPlan;
  size: { bytes: number | null; estimated: boolean };
}

/** The plan with its loudness pass(es): two when the output (the clip, or the whole file) is short enough. */
export function loudnessPlan(sized: Sized, media: ResolvedMedia, format: FormatId): Sized {
  const { plan } = sized;
  if (!normalizable(format) || plan.op !== "transcode") {
    throw new EngineError("normalize.unavailable", { detail: `${format} (${plan.op})` });
  }
  const seconds = plan.clip?.duration ?? media.details.durationSeconds;
  const loudness: PlanLoudness = { passes: seconds > 0 && seconds <= TWO_PASS_MAX_SECONDS ? 2 : 1 };
  return { ...sized, plan: { ...plan, loudness }, size: { bytes: sized.size.bytes, estimated: sized.size.bytes !== null } };
}

const num = (n: number) => n.toFixed(2);
const targets = `I=${TARGET_LUFS}:TP=${LIMITER_TRUE_PEAK}:LRA=${TARGET_LRA}`;

/** The first pass's filter: measure only (its JSON goes to stderr at the info level). */
export function measureFilter(): string {
  return `loudnorm=${targets}:print_format=json`;
}

/** The filter that normalises: with a measure, one linear gain where loudnorm can (else dynamic); without, one pass. */
export function normalizeFilter(measure: LoudnessMeasure | null): string {
  const measured = measure
    ? `:measured_I=${num(measure.integrated)}:measured_TP=${num(measure.truePeak)}:measured_LRA=${num(measure.lra)}` +
      `:measured_thresh=${num(measure.threshold)}:offset=${num(measure.offset)}:linear=true`
    : "";
  return `loudnorm=${targets}${measured}:print_format=none`;
}

/**
 * loudnorm's JSON block from ffmpeg's stderr (the last `{…}` holding "input_i"); null when there is
 * none or a value is not a finite number (silence measures as -inf: nothing to normalise by).
 */
export function parseLoudnormJson(stderr: string): LoudnessMeasure | null {
  const start = stderr.lastIndexOf("{");
  const end = stderr.lastIndexOf("}");
  if (start < 0 || end < start) return null;
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(stderr.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    return null;
  }
  const value = (key: string) => (typeof raw[key] === "string" ? Number(raw[key]) : NaN);
  const measure = { integrated: value("input_i"), truePeak: value("input_tp"), lra: value("input_lra"), threshold: value("input_thresh"), offset: value("target_offset") };
  return Object.values(measure).every(Number.isFinite) ? measure : null;
}
