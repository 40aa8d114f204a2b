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
import { SPONSORBLOCK_CATEGORIES, type SponsorCategory } from "../sponsorblock/segments.ts";

/** What SponsorBlock's segments become: cut out, or chapters of the file (docs/decisions/065). */
export const SPONSORBLOCK_ACTIONS = ["cut", "chapters"] as const;
export interface SponsorBlockOption {
  /** the segment categories asked for, in SPONSORBLOCK_CATEGORIES' order, at least one */
  categories: SponsorCategory[];
  action: (typeof SPONSORBLOCK_ACTIONS)[number];
}

export interface MediaOptions {
  /** title, artist, date, source link and cover written into the file (default true); false leaves it bare */
  tags: boolean;
  /** a clip's first second (issue 33 §1; absent: from the beginning, or no clip at all) */
  start?: number;
  /** a clip's last second (absent: to the end, or no clip at all) */
  end?: number;
  /** the clip (or each chapter of a split) cut at the exact frames (re-encoded) rather than at the keyframe at or before its start; only ever true when set */
  exact?: true;
  /** audio evened out to −14 LUFS, −1 dBTP (issue 33 §5, docs/decisions/066); only ever true when set */
  normalize?: true;
  /** the audio track in this language (a code from resolve's `audioTracks`) instead of the original (issue 33 §5, docs/decisions/067) */
  audioLanguage?: string;
  /** YouTube's SponsorBlock segments cut out or written as chapters (issue 33 §4, docs/decisions/065) */
  sponsorblock?: SponsorBlockOption;
  /** a caption track muxed as a selectable track, or burned into the picture (issue 33 §6, docs/decisions/069) */
  subtitles?: SubtitlesOption;
  /** "split": one file per chapter, in a ZIP (issue 33 §2) */
  chapters?: "split";
}

/** How subtitles go into a video: a selectable track (`mov_text` in MP4, WebVTT in WEBM), or drawn into the picture (re-encoded). */
export const SUBTITLE_MODES = ["soft", "burn"] as const;
export interface SubtitlesOption {
  /** a caption language from resolve's `subtitles` listing ("de", "pt-BR") */
  language: string;
  mode: (typeof SUBTITLE_MODES)[number];
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

const sponsorAction = z.enum(SPONSORBLOCK_ACTIONS);
/**
 * SponsorBlock: `{"categories":[…],"action":…}` in JSON; in a query (`GET /download`) the
 * categories separated by commas, with the action in `sponsorblockAction` (default "cut").
 */
const sponsorblockField = z.union([
  z.object({ categories: z.array(z.enum(SPONSORBLOCK_CATEGORIES)).min(1).max(20), action: sponsorAction }).strict(),
  z.string().max(200),
]);

/** An audio track's language as resolve lists it ("de", "en-US", "en-desc"); empty is none. */
const audioLanguageField = z.union([z.literal(""), z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,2}$/)]);

const subtitleMode = z.enum(SUBTITLE_MODES);
/** A caption language: a BCP 47-like tag as resolve lists them. */
const captionLanguage = z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/);
/**
 * Subtitles: `{"language":"de","mode":"burn"}` in JSON; in a query the language alone, with the
 * mode in `subtitlesMode` (default "soft").
 */
const subtitlesField = z.union([z.object({ language: captionLanguage, mode: subtitleMode }).strict(), z.literal(""), captionLanguage]);

/** Every option the API takes, all optional: a request schema that refuses unknown keys spreads this into its own. */
export const mediaOptionsShape = {
  tags: flag.optional(),
  start: clipTime.optional(),
  end: clipTime.optional(),
  exact: flag.optional(),
  normalize: flag.optional(),
  audioLanguage: audioLanguageField.optional(),
  sponsorblock: sponsorblockField.optional(),
  sponsorblockAction: sponsorAction.optional(),
  subtitles: subtitlesField.optional(),
  subtitlesMode: subtitleMode.optional(),
  chapters: z.union([z.literal("split"), z.literal("")]).optional(),
};

const FIELD_RULES: Record<string, string> = {
  start: '"start" must be a time in seconds or h:mm:ss.',
  end: '"end" must be a time in seconds or h:mm:ss.',
  audioLanguage: '"audioLanguage" must be a language code from the video\'s audioTracks.',
  sponsorblock: `"sponsorblock" must name its categories (${SPONSORBLOCK_CATEGORIES.join(", ")}) and an action ("cut" or "chapters").`,
  sponsorblockAction: '"sponsorblockAction" must be "cut" or "chapters", next to "sponsorblock" categories separated by commas.',
  subtitles: '"subtitles" must name a caption language from the video\'s subtitles and a mode ("soft" or "burn").',
  subtitlesMode: '"subtitlesMode" must be "soft" or "burn", next to a "subtitles" language.',
  chapters: '"chapters" must be "split".',
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
    const rule = FIELD_RULES[field] ?? FIELD_RULES[field.split(".")[0]!];
    throw new EngineError("request.invalid", { message: rule ?? `"${field}" must be true or false.`, detail: `${field}: ${issue.message}` });
  }
  const { tags, exact, normalize, audioLanguage } = result.data;
  const start = clipField(result.data.start, "start");
  const end = clipField(result.data.end, "end");
  const sponsorblock = sponsorblockOption(result.data.sponsorblock, result.data.sponsorblockAction);
  const subtitles = subtitlesOption(result.data.subtitles, result.data.subtitlesMode);
  const chapters = result.data.chapters === "split" ? ("split" as const) : undefined;
  // a clip that ends where it starts, or before, is nothing any source can give (the duration is checked at plan time)
  if (start !== undefined && end !== undefined && end <= start) {
    throw new EngineError("clip.out_of_range", { detail: `start ${start} >= end ${end}` });
  }
  return {
    ...DEFAULT_MEDIA_OPTIONS,
    ...(tags !== undefined ? { tags } : {}),
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    ...(exact && (start !== undefined || end !== undefined || chapters) ? { exact: true as const } : {}),
    ...(normalize ? { normalize: true as const } : {}),
    ...(audioLanguage ? { audioLanguage } : {}),
    ...(sponsorblock ? { sponsorblock } : {}),
    ...(subtitles ? { subtitles } : {}),
    ...(chapters ? { chapters } : {}),
  };
}

/** The subtitles option of a request: the JSON object, or the query's language and mode; none when empty. */
function subtitlesOption(raw: z.infer<typeof subtitlesField> | undefined, mode: SubtitlesOption["mode"] | undefined): SubtitlesOption | undefined {
  const invalid = (detail: string) => new EngineError("request.invalid", { message: FIELD_RULES.subtitlesMode!, detail });
  if (raw === undefined || raw === "") {
    if (mode !== undefined) throw invalid("subtitlesMode without subtitles");
    return undefined;
  }
  if (typeof raw !== "string") {
    if (mode !== undefined) throw invalid("subtitlesMode next to a JSON subtitles");
    return { language: raw.language, mode: raw.mode };
  }
  return { language: raw, mode: mode ?? "soft" };
}

/** The SponsorBlock option of a request: the JSON object, or the query's comma-separated categories and action; none when empty. */
function sponsorblockOption(raw: z.infer<typeof sponsorblockField> | undefined, action: SponsorBlockOption["action"] | undefined): SponsorBlockOption | undefined {
  const invalid = (field: "sponsorblock" | "sponsorblockAction", detail: string) => new EngineError("request.invalid", { message: FIELD_RULES[field]!, detail });
  if (raw === undefined || raw === "") {
    if (action !== undefined) throw invalid("sponsorblockAction", "sponsorblockAction without sponsorblock");
    return undefined;
  }
  if (typeof raw !== "string") {
    if (action !== undefined) throw invalid("sponsorblockAction", "sponsorblockAction next to a JSON sponsorblock");
    return { categories: sponsorCategories(raw.categories), action: raw.action };
  }
  const names = raw.split(",").map((c) => c.trim()).filter(Boolean);
  const unknown = names.find((c) => !(SPONSORBLOCK_CATEGORIES as readonly string[]).includes(c));
  if (unknown !== undefined || names.length === 0) throw invalid("sponsorblock", `sponsorblock: unknown category ${unknown ?? "(none)"}`);
  return { categories: sponsorCategories(names as SponsorCategory[]), action: action ?? "cut" };
}

/** Each category once, in the catalogue's order (so a link and a cache key say them one way). */
const sponsorCategories = (picked: readonly SponsorCategory[]): SponsorCategory[] => SPONSORBLOCK_CATEGORIES.filter((c) => picked.includes(c));

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
  /** SponsorBlock: the action's letter (c = cut, m = marked as chapters) and the categories as bits of SPONSORBLOCK_CATEGORIES, e.g. "c3" */
  b?: string;
  /** subtitles: the mode's letter (s = soft, b = burned in), a colon and the language, e.g. "b:de" */
  t?: string;
  /** chapters split into files */
  c?: 1;
}

/** What a link carries: only the options that differ from the defaults (none: nothing, so older links read the same). */
export function optionsClaim(options: MediaOptions | undefined): OptionsClaim | undefined {
  if (!options) return undefined;
  const claim: OptionsClaim = {};
  if (!options.tags) claim.g = 0;
  if (options.start !== undefined) claim.s = Math.round(options.start * 1000);
  if (options.end !== undefined) claim.e = Math.round(options.end * 1000);
  if (options.exact && (isClip(options) || options.chapters === "split")) claim.x = 1;
  if (options.normalize) claim.n = 1;
  if (options.audioLanguage) claim.a = options.audioLanguage;
  if (options.sponsorblock) {
    const bits = options.sponsorblock.categories.reduce((mask, c) => mask | (1 << SPONSORBLOCK_CATEGORIES.indexOf(c)), 0);
    claim.b = `${options.sponsorblock.action === "cut" ? "c" : "m"}${bits}`;
  }
  if (options.subtitles) claim.t = `${options.subtitles.mode === "burn" ? "b" : "s"}:${options.subtitles.language}`;
  if (options.chapters === "split") claim.c = 1;
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
  const sponsorblock = claim.b === undefined ? undefined : sponsorblockFromClaim(claim.b);
  if (sponsorblock === null) return null;
  const subtitles = claim.t === undefined ? undefined : subtitlesFromClaim(claim.t);
  if (subtitles === null) return null;
  if (claim.c !== undefined && claim.c !== 1) return null;
  if (claim.x === 1 && start === undefined && end === undefined && claim.c !== 1) return null;
  return {
    ...DEFAULT_MEDIA_OPTIONS,
    tags: claim.g !== 0,
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    ...(claim.x === 1 ? { exact: true as const } : {}),
    ...(claim.n === 1 ? { normalize: true as const } : {}),
    ...(typeof claim.a === "string" && claim.a ? { audioLanguage: claim.a } : {}),
    ...(sponsorblock ? { sponsorblock } : {}),
    ...(subtitles ? { subtitles } : {}),
    ...(claim.c === 1 ? { chapters: "split" as const } : {}),
  };
}

function subtitlesFromClaim(raw: unknown): SubtitlesOption | null {
  const m = typeof raw === "string" ? /^([sb]):(.+)$/.exec(raw) : null;
  if (!m || !captionLanguage.safeParse(m[2]).success) return null;
  return { language: m[2]!, mode: m[1] === "b" ? "burn" : "soft" };
}

function sponsorblockFromClaim(raw: unknown): SponsorBlockOption | null {
  const m = typeof raw === "string" ? /^([cm])([1-9][0-9]?)$/.exec(raw) : null;
  const bits = m ? Number(m[2]) : 0;
  if (!m || bits >= 1 << SPONSORBLOCK_CATEGORIES.length) return null;
  return { categories: SPONSORBLOCK_CATEGORIES.filter((_, i) => bits & (1 << i)), action: m[1] === "c" ? "cut" : "chapters" };
}

const CLAIM_KEYS = new Set(["g", "s", "e", "x", "n", "b", "a", "t", "c"]);
