/**
 * Tags in a format's plan and in its size: the plan carries what to write (the run writes it),
 * the size shown before the download counts the tag's bytes.
 */
import type { FormatId, MediaPlan, ResolvedMedia, Thumbnail } from "../../types.ts";
import { id3TagBytes } from "./id3.ts";
import { mp4TagBytes } from "./mp4-tags.ts";
import { tagsFor, type FileTags } from "./tag-fields.ts";

/** The bytes the tags add: the text exactly, the cover at the size resolve measured (none when unknown). */
export function tagBytes(tags: FileTags): number {
  const cover = tags.cover?.bytes ?? null;
  return tags.style === "id3" ? id3TagBytes(tags.fields, cover, undefined, tags.chapters) : mp4TagBytes(tags.fields, cover, tags.chapters);
}

interface Sized {
  plan: MediaPlan;
  size: { bytes: number | null; estimated: boolean };
}

/**
 * The plan with the format's tags, and its size with their bytes. A file sent as it is
 * (passthrough) gets a cover only when its size is known ahead, so its length is known before the
 * first byte and the same on every request of the link (a resume lands where it should).
 */
export function tagPlan(sized: Sized, media: ResolvedMedia, format: FormatId, thumbnail: Thumbnail | undefined): Sized {
  const { plan, size } = sized;
  if (plan.op !== "passthrough" && plan.op !== "remux" && plan.op !== "transcode") return sized;
  if (plan.op === "remux" && plan.container === "webm") return sized;
  // a passthrough's source must be an MP4 for its head to take the tags
  if (plan.op === "passthrough" && plan.input.container !== "mp4" && plan.input.container !== "m4a") return sized;
  const found = tagsFor(media, format, thumbnail);
  if (!found) return sized;
  const tags = plan.op === "passthrough" && found.cover?.bytes === null ? { ...found, cover: null } : found;
  const added = tagBytes(tags);
  const coverUnknown = tags.cover !== null && tags.cover.bytes === null;
  return {
    plan: { ...plan, tags, bytes: plan.bytes === null ? null : plan.bytes + added },
    size: { bytes: size.bytes === null ? null : size.bytes + added, estimated: size.bytes !== null && (size.estimated || coverUnknown) },
  };
}
