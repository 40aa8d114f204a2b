/**
 * The media options of one download (issue 33 §7): parsed and checked once where a request
 * arrives (`POST /api/v1/downloads` JSON, `GET /api/v1/download` query), carried inside the
 * signed link (its signature covers them), and read by the media step (plan and run). Each later
 * option of issue 33 (clips, chapters, SponsorBlock, loudness, audio language, subtitles) is one
 * more field here: its schema entry, its default, its short name in the link.
 */
import { z } from "zod";
import { EngineError } from "../../errors.ts";
import { parseClipTime } from "#common/clip-time.ts";

export interface MediaOptions {
  /** title, artist, date, source link and cover written into the file (default true); false leaves it bare */
  tags: boolean;
  /** a clip's first second (issue 33 §1; absent: from the beginning, or no clip at all) */
  start?: number;
  /** a clip's last second (absent: to the end, or no clip at all) */
  end?: number;
  /** the clip cut at the exact frames (re-encoded) rather than at the keyframe at or before `start`; only ever true when set */
  exact?: true;
  /** audio evened out to −14 LUFS, −1 dBTP (issue 33 §5, docs/decisions/066); only ever true when set */
  normalize?: true;
  /** the audio track in this language (a code from resolve's `audioTracks`) instead of the original (issue 33 §5, docs/decisions/067) */
  audioLanguage?: string;
}

/** Whether the options ask for a clip rather than the whole file. */
export function isClip(options: MediaOptions | undefined): boolean {
  return options?.start !== undefined || options?.end !== undefined;
}

export const DEFAULT_MEDIA_OPTIONS: Readonly<MediaOptions> = Object.freeze({ tags: true });

/** A boolean as JSON gives it, or as a query string does ("true"/"false", "1"/"0"). */
const flag = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((s) => s === "true" || s === "1")]);

/** A clip time: seconds as a JSON number, or text ("90", "1:30", "1:02:03"); checked by parseClipTime below. */
const clipTime = z.union([z.number(), z.string().max(16)]);

/** An audio track's language as resolve lists it ("de", "en-US", "en-desc"); empty is none. */
const audioLanguageField = z.union([z.literal(""), z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,2}$/)]);

/** Every option the API takes, all optional: a request schema that refuses unknown keys spreads this into its own. */
export const mediaOptionsShape = { tags: flag.optional(), start: clipTime.optional(), end: clipTime.optional(), exact: flag.optional(), normalize: flag.optional(), audioLanguage: audioLanguageField.optional() };

const FIELD_RULES: Record<string, string> = {
  start: '"start" must be a time in seconds or h:mm:ss.',
  end: '"end" must be a time in seconds or h:mm:ss.',
  audioLanguage: '"audioLanguage" must be a language code from the video\'s audioTracks.',
};

/** an unknown key is no option's business here (the request schema's) */
const requestSchema = z.object(mediaOptionsShape);

/**
 * The options a request asks for, over the defaults. A malformed value is `request.invalid`
 * naming the field, before anything is resolved.
 */
export function parseMediaOptions(input: unknown): MediaOptions {
  const result = requestSchema.safeParse(input ?? {});
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.join(".");
    throw new EngineError("request.invalid", { message: FIELD_RULES[field] ?? `"${field}" must be true or false.`, detail: `${field}: ${issue.message}` });
  }
  const { tags, exact, normalize, audioLanguage } = result.data;
  const start = clipField(result.data.start, "start");
  const end = clipField(result.data.end, "end");
  // a clip that ends where it starts, or before, is nothing any source can give (the duration is checked at plan time)
  if (start !== undefined && end !== undefined && end <= start) {
    throw new EngineError("clip.out_of_range", { detail: `start ${start} >= end ${end}` });
  }
  return {
    ...DEFAULT_MEDIA_OPTIONS,
    ...(tags !== undefined ? { tags } : {}),
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    ...(exact && (start !== undefined || end !== undefined) ? { exact: true as const } : {}),
    ...(normalize ? { normalize: true as const } : {}),
    ...(audioLanguage ? { audioLanguage } : {}),
  };
}

/** An absent or empty field is no clip bound; anything else must be a time. */
function clipField(raw: string | number | undefined, field: "start" | "end"): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const seconds = parseClipTime(raw);
  if (seconds === null) throw new EngineError("request.invalid", { message: FIELD_RULES[field]!, detail: `${field}: not a time` });
  return seconds;
}

/** Short names inside a signed link (a link is a URL: every byte counts). */
interface OptionsClaim {
  /** tags: 0 = bare */
  g?: 0;
  /** clip start and end, in milliseconds */
  s?: number;
  e?: number;
  /** exact cut */
  x?: 1;
  /** loudness normalised */
  n?: 1;
  /** the audio track's language */
  a?: string;
}

/** What a link carries: only the options that differ from the defaults (none: nothing, so older links read the same). */
export function optionsClaim(options: MediaOptions | undefined): OptionsClaim | undefined {
  if (!options) return undefined;
  const claim: OptionsClaim = {};
  if (!options.tags) claim.g = 0;
  if (options.start !== undefined) claim.s = Math.round(options.start * 1000);
  if (options.end !== undefined) claim.e = Math.round(options.end * 1000);
  if (options.exact && isClip(options)) claim.x = 1;
  if (options.normalize) claim.n = 1;
  if (options.audioLanguage) claim.a = options.audioLanguage;
  return Object.keys(claim).length > 0 ? claim : undefined;
}

/** The options a verified link carries; null when its claim is malformed (the link is then refused). */
export function optionsFromClaim(raw: unknown): MediaOptions | null {
  if (raw === undefined) return { ...DEFAULT_MEDIA_OPTIONS };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const claim = raw as Record<string, unknown>;
  if (Object.keys(claim).some((k) => !CLAIM_KEYS.has(k))) return null;
  if (claim.g !== undefined && claim.g !== 0) return null;
  if (claim.x !== undefined && claim.x !== 1) return null;
  if (claim.n !== undefined && claim.n !== 1) return null;
  if (claim.a !== undefined && !audioLanguageField.safeParse(claim.a).success) return null;
  const ms = (v: unknown) => (v === undefined ? undefined : Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) / 1000 : null);
  const start = ms(claim.s);
  const end = ms(claim.e);
  if (start === null || end === null) return null;
  if (claim.x === 1 && start === undefined && end === undefined) return null;
  return {
    ...DEFAULT_MEDIA_OPTIONS,
    tags: claim.g !== 0,
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    ...(claim.x === 1 ? { exact: true as const } : {}),
    ...(claim.n === 1 ? { normalize: true as const } : {}),
    ...(typeof claim.a === "string" && claim.a ? { audioLanguage: claim.a } : {}),
  };
}

const CLAIM_KEYS = new Set(["g", "s", "e", "x", "n", "a"]);
