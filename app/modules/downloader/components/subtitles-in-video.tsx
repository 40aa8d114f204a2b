import { useId } from "react";
import type { SubtitlesMode } from "../media-options.ts";
import type { LanguageChoices } from "../subtitle-languages.ts";
import { PlanNote, SelectRow } from "./select-row.tsx";
import { LanguageOptions } from "./subtitle-language-select.tsx";

/** The picker's subtitles for MP4 and WEBM files: a language ("" = off) and how they go in. */
export interface SubtitlesChoice {
  language: string;
  mode: SubtitlesMode;
}

export const NO_SUBTITLES: SubtitlesChoice = { language: "", mode: "soft" };

export const SUBTITLES_LOCKED_NOTE = "Premium feature: subtitles in the video come with the Pro and Ultimate plans.";

const MODES: Array<{ mode: SubtitlesMode; label: string; hint: string }> = [
  { mode: "soft", label: "Selectable track", hint: "The player can turn them on and off." },
  { mode: "burn", label: "Burned into the picture", hint: "Always shown, in any player; the video is re-encoded, which takes longer." },
];

/**
 * Subtitles in the video (issue 33 §6, decision 069): off by default, or one of the video's
 * caption languages, as a selectable track (`mov_text` in MP4, WebVTT in WEBM) or burned into the
 * picture. Sent with MP4 and WEBM files only. A plan without the `subtitles` right sees the choice
 * disabled with where to get it, never a choice the API would refuse with a 403.
 */
export function SubtitlesInVideo({ choices, value, onChange, locked }: { choices: LanguageChoices; value: SubtitlesChoice; onChange: (choice: SubtitlesChoice) => void; locked: boolean }) {
  const id = useId();
  const on = !locked && value.language !== "";
  const modes = on ? (
    <fieldset className="min-w-0">
      <legend className="text-xs font-medium text-slate-700">Show them as</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
        {MODES.map(({ mode, label }) => (
          <label key={mode} className="flex items-center gap-2 text-sm text-slate-900">
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode}
              checked={value.mode === mode}
              aria-describedby={value.mode === mode ? `${id}-mode-hint` : undefined}
              onChange={() => onChange({ ...value, mode })}
              className="size-4 accent-brand-600"
            />
            {label}
          </label>
        ))}
      </div>
      <p id={`${id}-mode-hint`} className="mt-1 text-xs text-slate-600">
        {MODES.find((m) => m.mode === value.mode)!.hint}
      </p>
    </fieldset>
  ) : null;
  return (
    <SelectRow
      label="Subtitles in the video"
      name="subtitles"
      value={value.language}
      onChange={(language) => onChange({ ...value, language })}
      testId="subtitles-in-video"
      hint="For MP4 and WEBM files."
      locked={locked ? <PlanNote>{SUBTITLES_LOCKED_NOTE}</PlanNote> : undefined}
      extra={modes}
    >
      <option value="">Off</option>
      <LanguageOptions choices={choices} />
    </SelectRow>
  );
}
