/**
 * A custom download profile's file-name template (issue 31 §2): `{title}`, `{channel}`, `{id}`,
 * `{date}`, `{format}` and `{platform}` filled from the video, each value and the whole name made
 * safe for a file system (common/file-names.ts) and capped; the format's extension follows.
 */
import { safeFileTitle } from "#common/file-names.ts";
import { isoDate } from "../media/tags/tag-fields.ts";
import type { FormatId, ResolvedMedia } from "../types.ts";
import { clipNamePart } from "../formats.ts";
import type { MediaOptions } from "../media/options/media-options.ts";

export const TEMPLATE_FIELDS = ["title", "channel", "id", "date", "format", "platform"] as const;
const FIELD = /\{([a-z]+)\}/g;
export const MAX_TEMPLATE_CHARS = 200;

/** Why a template cannot be used, or null when it can. */
export function templateProblem(template: string): string | null {
  if (template.length === 0 || template.length > MAX_TEMPLATE_CHARS) return `Write a file name of 1 to ${MAX_TEMPLATE_CHARS} characters.`;
  for (const [, name] of template.matchAll(FIELD)) {
    if (!(TEMPLATE_FIELDS as readonly string[]).includes(name!)) return `{${name}} is not a field. Use ${TEMPLATE_FIELDS.map((f) => `{${f}}`).join(", ")}.`;
  }
  return null;
}

/**
 * The file name a template gives this video in this format: `defaultName` is the name the format
 * would have had (its extension, and a subtitle language or a clip's span before it, are kept); a
 * template that leaves nothing usable gives `defaultName`.
 */
export function renderFilename(template: string, media: ResolvedMedia, format: FormatId, defaultName: string, language?: string, options?: MediaOptions): string {
  const values: Record<(typeof TEMPLATE_FIELDS)[number], string> = {
    title: media.details.title,
    channel: media.details.channelTitle,
    id: media.details.id,
    date: isoDate(media.details.publishedAt),
    format,
    platform: media.platform,
  };
  const filled = template.replace(FIELD, (whole, name: string) => (name in values ? safeFileTitle(values[name as keyof typeof values]) : whole));
  const base = safeFileTitle(filled);
  if (!base) return defaultName;
  const dot = defaultName.lastIndexOf(".");
  const extension = dot > 0 ? defaultName.slice(dot) : "";
  return `${base}${language ? `.${language}` : ""}${clipNamePart(media, options)}${extension}`;
}
