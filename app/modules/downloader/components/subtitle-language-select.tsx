import { useId } from "react";
import { Link } from "react-router";
import { Label } from "#app/components/ui/label.tsx";
import { BEST_AVAILABLE_LABEL, type LanguageChoices } from "../subtitle-languages.ts";

export const LANGUAGE_LOCKED_NOTE = "Choosing a language comes with the Pro and Ultimate plans.";

/**
 * The language the SRT, VTT and Transcript downloads use: the video's tracks, then the machine
 * translations. A plan without the right sees it disabled, with where to get it, so no choice
 * leads to a refused download.
 */
export function SubtitleLanguageSelect({ choices, value, onChange, canChoose }: { choices: LanguageChoices; value: string; onChange: (language: string) => void; canChoose: boolean }) {
  const id = useId();
  const noteId = `${id}-note`;
  return (
    <div className="mb-3 grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[auto_minmax(0,20rem)] sm:items-center sm:gap-x-4" data-testid="subtitle-language">
      <Label htmlFor={id}>Subtitle language</Label>
      <select
        id={id}
        name="language"
        value={canChoose ? value : ""}
        disabled={!canChoose}
        aria-describedby={canChoose ? undefined : noteId}
        onChange={(e) => onChange(e.target.value)}
        className="h-10 w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 text-sm disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600"
      >
        <option value="">{BEST_AVAILABLE_LABEL}</option>
        {choices.tracks.length ? (
          <optgroup label="Subtitles of this video">
            {choices.tracks.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </optgroup>
        ) : null}
        {choices.translations.length ? (
          <optgroup label="Auto-translated">
            {choices.translations.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
      {canChoose ? null : (
        <p id={noteId} className="text-sm text-slate-600 sm:col-span-2">
          {LANGUAGE_LOCKED_NOTE}{" "}
          <Link to="/premium" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
            See the plans
          </Link>
        </p>
      )}
    </div>
  );
}
