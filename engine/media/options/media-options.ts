/**
 * The media options of one download (issue 33 §7): parsed and checked once where a request
 * arrives (`POST /api/v1/downloads` JSON, `GET /api/v1/download` query), carried inside the
 * signed link (its signature covers them), and read by the media step (plan and run). Each later
 * option of issue 33 (clips, chapters, SponsorBlock, loudness, audio language, subtitles) is one
 * more field here: its schema entry, its default, its short name in the link.
 */
import { z } from "zod";
import { EngineError } from "../../errors.ts";

export interface MediaOptions {
  /** title, artist, date, source link and cover written into the file (default true); false leaves it bare */
  tags: boolean;
}

export const DEFAULT_MEDIA_OPTIONS: Readonly<MediaOptions> = Object.freeze({ tags: true });

/** A boolean as JSON gives it, or as a query string does ("true"/"false", "1"/"0"). */
const flag = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((s) => s === "true" || s === "1")]);

/** Every option the API takes, all optional: a request schema that refuses unknown keys spreads this into its own. */
export const mediaOptionsShape = { tags: flag.optional() };

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
    throw new EngineError("request.invalid", { message: `"${field}" must be true or false.`, detail: `${field}: ${issue.message}` });
  }
  return { ...DEFAULT_MEDIA_OPTIONS, ...(result.data.tags !== undefined ? { tags: result.data.tags } : {}) };
}

/** Short names inside a signed link (a link is a URL: every byte counts). */
interface OptionsClaim {
  /** tags: 0 = bare */
  g?: 0;
}

/** What a link carries: only the options that differ from the defaults (none: nothing, so older links read the same). */
export function optionsClaim(options: MediaOptions | undefined): OptionsClaim | undefined {
  if (!options) return undefined;
  const claim: OptionsClaim = {};
  if (!options.tags) claim.g = 0;
  return Object.keys(claim).length > 0 ? claim : undefined;
}

/** The options a verified link carries; null when its claim is malformed (the link is then refused). */
export function optionsFromClaim(raw: unknown): MediaOptions | null {
  if (raw === undefined) return { ...DEFAULT_MEDIA_OPTIONS };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const claim = raw as Record<string, unknown>;
  if (Object.keys(claim).some((k) => k !== "g")) return null;
  if (claim.g !== undefined && claim.g !== 0) return null;
  return { ...DEFAULT_MEDIA_OPTIONS, tags: claim.g !== 0 };
}
