import { Button } from "#app/components/ui/button.tsx";
import { estimateSecondsLeft, formatTimeLeft } from "../media/media-format.ts";

/** A labelled progress bar with the time left and a cancel button. */
export function ProgressPanel({ label, progress, startedAt, onCancel }: { label: string; progress: number; startedAt: number; onCancel?: () => void }) {
  const pct = Math.round(progress * 100);
  const left = estimateSecondsLeft(progress, Date.now() - startedAt);
  return (
    <div className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
        <span id="tool-progress-label">{label}</span>
        <span aria-live="polite">
          {pct}% · {formatTimeLeft(left)}
        </span>
      </div>
      <progress aria-labelledby="tool-progress-label" max={100} value={pct} className="mt-2 h-2 w-full accent-brand-600" />
      {onCancel ? (
        <Button type="button" variant="outline" size="sm" className="mt-2" onClick={onCancel}>
          Cancel
        </Button>
      ) : null}
    </div>
  );
}
