import { useId } from "react";
import { formatClipTime, parseClipTime } from "#common/clip-time.ts";
import type { ClipChoice } from "../clip-choice.ts";

/**
 * The format picker's clip (issue 33 §1): a start and an end typed as times, or dragged on a
 * timeline of the video's length, and the exact cut. Empty fields download the whole file. A
 * mistake is shown under its field and announced.
 */
export function ClipFields({
  value,
  onChange,
  error,
  durationSeconds = 0,
}: {
  value: ClipChoice;
  onChange: (clip: ClipChoice) => void;
  error: { field: "start" | "end"; message: string } | null;
  /** the video's length: a timeline is shown when it is known */
  durationSeconds?: number;
}) {
  const id = useId();
  const length = Math.floor(durationSeconds);
  // a slider stands where its field says, or at its end of the video while the field is empty or not a time
  const at = (name: "start" | "end") => Math.min(length, Math.max(0, Math.round(parseClipTime(value[name]) ?? (name === "start" ? 0 : length))));
  const slider = (name: "start" | "end", label: string) => (
    <div className="flex items-center gap-3">
      <label htmlFor={`${id}-${name}-timeline`} className="w-24 shrink-0 text-xs text-slate-600">
        {label}
      </label>
      <input
        id={`${id}-${name}-timeline`}
        type="range"
        min={0}
        max={length}
        step={1}
        value={at(name)}
        aria-valuetext={formatClipTime(at(name))}
        onChange={(e) => onChange({ ...value, [name]: formatClipTime(Number(e.target.value)) })}
        className="h-8 w-full accent-brand-600"
        data-testid={`clip-${name}-timeline`}
      />
    </div>
  );
  const field = (name: "start" | "end", label: string, placeholder: string) => (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className="text-sm font-medium text-slate-900">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        name={`clip-${name}`}
        type="text"
        inputMode="text"
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={value[name]}
        onChange={(e) => onChange({ ...value, [name]: e.target.value })}
        aria-invalid={error?.field === name ? true : undefined}
        aria-describedby={`${id}-hint${error?.field === name ? ` ${id}-error` : ""}`}
        className="h-11 w-full rounded-md border border-slate-300 px-3 text-base text-slate-900 aria-invalid:border-destructive sm:h-9 sm:text-sm"
        data-testid={`clip-${name}`}
      />
    </div>
  );
  return (
    <fieldset className="mb-3 rounded-lg border border-slate-200 p-3" data-testid="clip-fields">
      <legend className="px-1 text-sm font-semibold text-slate-900">Clip (optional)</legend>
      <div className="flex flex-col gap-3 sm:flex-row">
        {field("start", "Start", "0:00")}
        {field("end", "End", "end of video")}
      </div>
      <p id={`${id}-error`} role="alert" className="mt-1 text-sm font-medium text-destructive" data-testid="clip-error">
        {error?.message ?? ""}
      </p>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        Times like 1:02:03, 2:30 or 90{length > 0 ? ", or drag on the timeline" : ""}. Leave both empty for the whole file.
      </p>
      {length > 0 ? (
        <div className="mt-2 flex flex-col gap-1" data-testid="clip-timeline">
          {slider("start", "Start on timeline")}
          {slider("end", "End on timeline")}
        </div>
      ) : null}
      <div className="mt-2 flex items-start gap-3">
        <input
          id={`${id}-exact`}
          type="checkbox"
          checked={value.exact}
          onChange={(e) => onChange({ ...value, exact: e.target.checked })}
          className="mt-1 size-4 accent-brand-600"
          aria-describedby={`${id}-exact-hint`}
          data-testid="clip-exact"
        />
        <div>
          <label htmlFor={`${id}-exact`} className="text-sm font-medium text-slate-900">
            Cut at the exact second
          </label>
          <p id={`${id}-exact-hint`} className="text-xs text-slate-600">
            {value.exact
              ? "The clip is re-encoded so it starts and ends on the frames you typed; it takes a little longer."
              : "Off: the clip is copied as it is, starting at the key frame just before your start (usually a second or two earlier)."}
          </p>
        </div>
      </div>
    </fieldset>
  );
}
