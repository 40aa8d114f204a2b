import { BEST_AVAILABLE_LABEL, type LanguageChoices } from "../subtitle-languages.ts";
import { PlanNote, SelectRow } from "./select-row.tsx";

export const LANGUAGE_LOCKED_NOTE = "Choosing a language comes with the Pro and Ultimate plans.";

/** The video's tracks, then the machine translations, each group only when it has any. */
export function LanguageOptions({ choices }: { choices: LanguageChoices }) {
  const groups = [
    { label: "Subtitles of this video", list: choices.tracks },
    { label: "Auto-translated", list: choices.translations },
  ];
  return groups.map(({ label, list }) =>
    list.length ? (
      <optgroup key={label} label={label}>
        {list.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </optgroup>
    ) : null,
  );
}

/**
 * The language the SRT, VTT and Transcript downloads use: the video's tracks, then the machine
 * translations. A plan without the right sees it disabled, with where to get it, so no choice
 * leads to a refused download.
 */
export function SubtitleLanguageSelect({ choices, value, onChange, canChoose }: { choices: LanguageChoices; value: string; onChange: (language: string) => void; canChoose: boolean }) {
  return (
    <SelectRow label="Subtitle language" name="language" value={value} onChange={onChange} testId="subtitle-language" locked={canChoose ? undefined : <PlanNote>{LANGUAGE_LOCKED_NOTE}</PlanNote>}>
      <option value="">{BEST_AVAILABLE_LABEL}</option>
      <LanguageOptions choices={choices} />
    </SelectRow>
  );
}
