import type { FormatOption } from "#engine/types.ts";

/** Spec §9: the home and video tabs, in order. */
export const FORMAT_TABS = [
  { value: "video", label: "Video" },
  { value: "audio", label: "Audio Only" },
  { value: "other", label: "Other" },
] as const;

export type FormatTab = (typeof FORMAT_TABS)[number]["value"];

export function tabOf(option: Pick<FormatOption, "icon">): FormatTab {
  if (option.icon === "video") return "video";
  if (option.icon === "audio") return "audio";
  return "other";
}

export function groupFormats(formats: readonly FormatOption[]): Record<FormatTab, FormatOption[]> {
  const groups: Record<FormatTab, FormatOption[]> = { video: [], audio: [], other: [] };
  for (const f of formats) groups[tabOf(f)].push(f);
  return groups;
}

export type OptionStatus = "ready" | "locked" | "unavailable";

/**
 * What a visitor can do with one option: download it, see it locked behind premium (with the
 * reason and a link to the plans), or see why it does not exist for this video.
 */
export function optionStatus(option: FormatOption, isPremium: boolean): OptionStatus {
  if (!option.available) return "unavailable";
  // the server knows the caller's plan (session cookie); `isPremium` is the fallback for a
  // payload without `allowed`
  if (option.premium && !(option.allowed ?? isPremium)) return "locked";
  return "ready";
}

/** The sentence shown under an option that cannot be downloaded. */
export function optionExplanation(option: FormatOption, status: OptionStatus): string | null {
  if (status === "locked") return "Premium feature: 4K, 8K and subtitle downloads come with a premium plan.";
  if (status === "unavailable") return option.note ? `Not available: ${option.note}` : "Not available for this video.";
  return null;
}

/** Honest notes about a downloadable option ("Source audio is 128 kbps"), minus entitlement wording. */
export function optionNote(option: FormatOption, status: OptionStatus): string | null {
  if (status !== "ready" || !option.note) return null;
  const note = option.note
    .split(". ")
    .filter((part) => part.trim() && part.trim() !== "Premium feature")
    .join(". ");
  return note || null;
}
