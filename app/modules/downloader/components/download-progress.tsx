import { formatBytes, formatSpeed, percentOf } from "../format-bytes.ts";
import type { ActiveDownload } from "../hooks/use-format-downloads.ts";

/** Below 100 % until the server says the file is complete: a size estimate can be exceeded. */
function runningPercent(active: ActiveDownload): number | null {
  if (active.phase === "success") return 100;
  const p = active.progress;
  const pct = p ? percentOf(p.bytes, p.total) : null;
  return pct === null ? null : Math.min(pct, 99);
}

/** Text for the progress line: "42% · 12.1 MB of 28.6 MB · 3.4 MB/s". */
export function progressText(active: ActiveDownload): string {
  const p = active.progress;
  if (!p) return active.attempt > 1 ? `Retrying (${active.attempt}/3)...` : "Preparing your file...";
  // Done: the bytes sent are the file's real size (the total may have been an estimate).
  if (active.phase === "success") return `100% · ${formatBytes(p.bytes)}`;
  const pct = runningPercent(active);
  const parts = [
    pct !== null ? `${pct}%` : null,
    p.total ? `${formatBytes(p.bytes)} of ${formatBytes(p.total)}` : formatBytes(p.bytes),
    p.speed > 0 && active.phase === "downloading" ? formatSpeed(p.speed) : null,
  ].filter(Boolean);
  return parts.join(" · ");
}

/**
 * The progress bar under the formats. The visible numbers update with every event; screen readers
 * get the phase changes from the status region instead of a flood of percentages.
 */
export function DownloadProgress({ active }: { active: ActiveDownload | null }) {
  const downloading = active?.phase === "downloading";
  const pct = active ? runningPercent(active) : null;
  const announce = !active
    ? ""
    : active.phase === "downloading"
      ? active.attempt > 1
        ? `Retrying ${active.label} (${active.attempt}/3)`
        : `Downloading ${active.label}`
      : active.phase === "success"
        ? `${active.label} downloaded${active.filename ? `: ${active.filename}` : ""}`
        : `${active.label} failed`;
  return (
    // Fixed height, always present: the bar appearing never pushes the page around.
    <div className="mt-4 min-h-16" data-testid="download-progress-area">
      <p role="status" aria-live="polite" className="sr-only">
        {announce}
      </p>
      {active && (downloading || active.phase === "success") ? (
        <div data-testid="download-progress">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span className="truncate font-medium text-slate-800">{active.filename ?? active.label}</span>
            <span className="shrink-0 text-slate-600 tabular-nums" data-testid="download-progress-text">
              {active.phase === "success" && active.untracked ? "Saved by your browser" : progressText(active)}
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={`${active.label} download progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct ?? undefined}
            aria-valuetext={progressText(active)}
            className="mt-1.5 h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className={pct === null ? "h-full w-1/3 animate-pulse rounded-full bg-brand-500" : active.phase === "success" ? "h-full rounded-full bg-emerald-600 transition-[width]" : "h-full rounded-full bg-brand-600 transition-[width]"}
              style={pct === null ? undefined : { width: `${pct}%` }}
            />
          </div>
        </div>
      ) : null}
    </div>
  );
}
