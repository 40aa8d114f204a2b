import { useId } from "react";
import type { SponsorCategory } from "#engine/media/sponsorblock/segments.ts";
import { SPONSORBLOCK_CATEGORIES, SPONSORBLOCK_LABELS, type SponsorBlockAction } from "../media-options.ts";

export interface SponsorBlockChoice {
  categories: SponsorCategory[];
  action: SponsorBlockAction;
}

export const NO_SPONSORBLOCK: SponsorBlockChoice = { categories: [], action: "cut" };

/**
 * The picker's SponsorBlock choice for a YouTube video (issue 33 §4, decision 065): the segment
 * kinds to act on (none by default) and whether they are cut out or marked as chapters. Chapters
 * are written with the tags, so "Mark as chapters" is off while files are left bare.
 */
export function SponsorBlockFields({ value, onChange, bare }: { value: SponsorBlockChoice; onChange: (choice: SponsorBlockChoice) => void; bare: boolean }) {
  const id = useId();
  const action = bare ? "cut" : value.action;
  const toggle = (category: SponsorCategory, on: boolean) =>
    onChange({ ...value, categories: SPONSORBLOCK_CATEGORIES.filter((c) => (c === category ? on : value.categories.includes(c))) });
  const radio = (name: SponsorBlockAction, label: string) => (
    <label className="flex items-center gap-2 text-sm text-slate-900 has-[:disabled]:text-slate-500">
      <input
        type="radio"
        name={`${id}-action`}
        value={name}
        checked={action === name}
        disabled={name === "chapters" && bare}
        aria-describedby={name === "chapters" && bare ? `${id}-bare` : undefined}
        onChange={() => onChange({ ...value, action: name })}
        className="size-4 accent-brand-600"
      />
      {label}
    </label>
  );
  return (
    <fieldset className="mb-3 min-w-0 rounded-md border border-slate-200 p-3" data-testid="sponsorblock-fields" aria-describedby={`${id}-hint`}>
      <legend className="px-1 text-sm font-medium text-slate-900">SponsorBlock segments</legend>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Parts of the video that SponsorBlock viewers have marked. Pick the kinds to cut out or mark; none are touched by default.
      </p>
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
        {SPONSORBLOCK_CATEGORIES.map((category) => (
          <label key={category} className="flex items-center gap-2 text-sm text-slate-900">
            <input
              type="checkbox"
              name="sponsorblock-category"
              value={category}
              checked={value.categories.includes(category)}
              onChange={(e) => toggle(category, e.target.checked)}
              className="size-4 accent-brand-600"
            />
            {SPONSORBLOCK_LABELS[category]}
          </label>
        ))}
      </div>
      <fieldset className="mt-3 min-w-0">
        <legend className="text-xs font-medium text-slate-700">With the picked segments</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
          {radio("cut", "Cut out")}
          {radio("chapters", "Mark as chapters")}
        </div>
        {bare ? (
          <p id={`${id}-bare`} className="mt-1 text-xs text-slate-600">
            Chapters are written with the tags, so they cannot be marked while files are left bare.
          </p>
        ) : null}
      </fieldset>
    </fieldset>
  );
}
