import { formatBytes, formatSpeed, percentOf } from "../format-bytes.ts";
import type { ActiveDownload } from "../hooks/use-format-downloads.ts";
import { filesCountText } from "./zip-progress.tsx";

/** Below 100 % until the server says the file is complete: a size estimate can be exceeded. */
function runningPercent(active: ActiveDownload): number | null {
  if (active.phase === "success") return 100;
  const p = active.progress;
  const pct = p ? percentOf(p.bytes, p.total) : null;
  return pct === null ? null : Math.min(pct, 99);
}

/** Text for the progress line: "42% · 12.1 MB of 28.6 MB · 3.4 MB/s", or a ZIP's "12.1 MB · 2 of 5 files · 3.4 MB/s". */
export function progressText(active: ActiveDownload): string {
  const p = active.progress;
  if (!p) return active.attempt > 1 ? `Retrying (${active.attempt}/3)...` : "Preparing your file...";
  // Done: the bytes sent are the file's real size (the total may have been an estimate).
  if (active.phase === "success") return [`100%`, formatBytes(p.bytes), p.files ? filesCountText({ files: p.files }) : null].filter(Boolean).join(" · ");
  const pct = runningPercent(active);
  const parts = [
    pct !== null ? `${pct}%` : null,
    p.total ? `${formatBytes(p.bytes)} of ${formatBytes(p.total)}` : formatBytes(p.bytes),
    // a ZIP of a split by chapter: "2 of 5 files" (its size is known only once its last file is made)
    p.files ? filesCountText({ files: p.files }) : null,
    p.speed > 0 && active.phase === "downloading" ? formatSpeed(p.speed) : null,
  ].filter(Boolean);
  return parts.join(" · ");
}

/** What a screen reader hears of a download: its phase changes, not a flood of percentages. */
function announcement(active: ActiveDownload | null): string {
  if (!active) return "";
  if (active.phase === "downloading") return active.attempt > 1 ? `Retrying ${active.label} (${active.attempt}/3)` : `Downloading ${active.label}`;
  if (active.phase === "success") return `${active.label} downloaded${active.filename ? `: ${active.filename}` : ""}`;
  return `${active.label} failed`;
}

/** The live region for a download's phase changes; always present, so the first change is read out. */
export function DownloadAnnouncer({ active }: { active: ActiveDownload | null }) {
  return (
    <p role="status" aria-live="polite" className="sr-only">
      {announcement(active)}
    </p>
  );
}

/** The bar itself (file name, numbers, bar), shown while a download runs and once it is done. */
export function DownloadProgressBar({ active }: { active: ActiveDownload | null }) {
  if (!active || (active.phase !== "downloading" && active.phase !== "success")) return null;
  const pct = runningPercent(active);
  return (
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
  );
}

/**
 * A bar in a fixed-height area with its announcer (the offline queue's panel): the bar appearing
 * never pushes the page around.
 */
export function DownloadProgress({ active }: { active: ActiveDownload | null }) {
  return (
    <div className="mt-4 min-h-16" data-testid="download-progress-area">
      <DownloadAnnouncer active={active} />
      <DownloadProgressBar active={active} />
    </div>
  );
}
