import { useEffect, useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { formatClipTime, parseClipTime } from "#common/clip-time.ts";
import { frameSrc, playerTimeText, previewStart, type ClipChoice } from "../clip-choice.ts";
import { usePlayerClock } from "../player-clock.ts";

/** How long the start rests before its first frame is asked for (a visitor typing or dragging asks once). */
export const PREVIEW_DELAY_MS = 400;

/**
 * The first frame of the clip, beside its start (docs/decisions/071): a small picture the server
 * cuts from the video; a placeholder while it comes, a short note when it cannot.
 */
function FramePreview({ src, at }: { src: string; at: number }) {
  const [state, setState] = useState<"loading" | "shown" | "failed">("loading");
  if (state === "failed") {
    return (
      <p className="flex aspect-video w-24 shrink-0 items-center justify-center rounded border border-slate-200 text-center text-xs text-slate-500" data-testid="clip-preview">
        No preview
      </p>
    );
  }
  return (
    <img
      src={src}
      alt={`First frame of the clip, at ${formatClipTime(at)}`}
      width={96}
      height={54}
      onLoad={() => setState("shown")}
      onError={() => setState("failed")}
      className={`aspect-video w-24 shrink-0 rounded border border-slate-200 bg-slate-200 object-cover${state === "loading" ? " animate-pulse" : ""}`}
      data-testid="clip-preview"
    />
  );
}

/**
 * The format picker's clip (issue 33 §1): a start and an end typed as times, dragged on a
 * timeline of the video's length, or taken from the player above ("Start here", "End here", when
 * the player can tell its time), and the exact cut; the start's first frame beside it. Empty fields
 * download the whole file. A mistake is shown under its field and announced.
 */
export function ClipFields({
  value,
  onChange,
  error,
  durationSeconds = 0,
  sourceUrl,
}: {
  value: ClipChoice;
  onChange: (clip: ClipChoice) => void;
  error: { field: "start" | "end"; message: string } | null;
  /** the video's length: a timeline is shown when it is known */
  durationSeconds?: number;
  /** the link the clip is of: its start's first frame is shown when given */
  sourceUrl?: string;
}) {
  const id = useId();
  const length = Math.floor(durationSeconds);
  const clock = usePlayerClock();
  // the start's frame, asked for once the start rests; at once gone when the start is
  const wanted = sourceUrl ? previewStart(value, durationSeconds) : null;
  const [previewAt, setPreviewAt] = useState<number | null>(null);
  useEffect(() => {
    if (wanted === null) return setPreviewAt(null);
    const timer = setTimeout(() => setPreviewAt(wanted), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  const fromPlayer = (name: "start" | "end") => {
    const now = clock?.now();
    if (now === null || now === undefined) return;
    onChange({ ...value, [name]: playerTimeText(now, durationSeconds) });
  };
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
      {/* the first frame goes under the field where the row has no room for it (a phone) */}
      <div className="flex flex-wrap items-center gap-2">
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
          className="h-11 min-w-30 flex-1 rounded-md border border-slate-300 px-3 text-base text-slate-900 aria-invalid:border-destructive sm:h-9 sm:text-sm"
          data-testid={`clip-${name}`}
        />
        {clock ? (
          <Button type="button" variant="outline" size="sm" className="h-11 shrink-0 sm:h-9" onClick={() => fromPlayer(name)} aria-describedby={`${id}-player-hint`} data-testid={`clip-${name}-here`}>
            {label} here
          </Button>
        ) : null}
        {name === "start" && sourceUrl && previewAt !== null ? <FramePreview key={previewAt} src={frameSrc(sourceUrl, previewAt)} at={previewAt} /> : null}
      </div>
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
      {clock ? (
        <p id={`${id}-player-hint`} className="mt-1 text-xs text-slate-600">
          Or pause the player above where the clip should start or end, and press Start here or End here.
        </p>
      ) : null}
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
              ? "Its first and last moments are re-encoded so it starts and ends on the frames you typed; it takes a little longer."
              : "Off: the clip is copied as it is, starting at the key frame just before your start (usually a second or two earlier)."}
          </p>
        </div>
      </div>
    </fieldset>
  );
}
