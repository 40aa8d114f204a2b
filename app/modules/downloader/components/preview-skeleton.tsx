
/** Rows shaped like the real format rows, so the list arriving does not move the page. */
export function FormatsSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div className="mt-6 animate-pulse" aria-hidden>
      <div className="h-7 w-44 rounded bg-slate-200" />
      <div className="mt-3 h-9 w-72 max-w-full rounded-lg bg-slate-100" />
      <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {Array.from({ length: rows }, (_, i) => (
          <li key={i} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex gap-3">
              <div className="size-5 rounded bg-slate-200" />
              <div>
                <div className="h-6 w-40 rounded bg-slate-200" />
                <div className="mt-1 h-5 w-32 rounded bg-slate-100" />
              </div>
            </div>
            <div className="h-9 w-32 rounded-md bg-slate-200" />
          </li>
        ))}
      </ul>
      <div className="mt-4 min-h-16" />
    </div>
  );
}

export function PreviewCardShell({ children, busy }: { children: React.ReactNode; busy?: boolean }) {
  return (
    <section aria-label="Video preview" aria-busy={busy || undefined} className="mt-8 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" data-testid="preview-card">
      {children}
    </section>
  );
}

/** The card while the link is resolved: the player box at its final 16:9 size, details and formats as outlines. */
export function PreviewLoading() {
  return (
    <PreviewCardShell busy>
      <p role="status" className="sr-only">
        Looking up the video...
      </p>
      <div className="grid gap-6 md:grid-cols-2">
        <div className="aspect-video w-full animate-pulse rounded-lg bg-slate-200" />
        <VideoDetailsSkeleton />
      </div>
      <FormatsSkeleton />
    </PreviewCardShell>
  );
}

export function VideoDetailsSkeleton() {
  return (
    <div className="flex animate-pulse flex-col gap-3" aria-hidden>
      <div className="h-6 w-4/5 rounded bg-slate-200" />
      <div className="flex items-center gap-3">
        <div className="size-10 rounded-full bg-slate-200" />
        <div className="h-4 w-1/2 rounded bg-slate-200" />
      </div>
      <div className="grid grid-cols-2 gap-2">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-8 rounded-md bg-slate-100" />
        ))}
      </div>
      <div className="h-4 w-1/3 rounded bg-slate-100" />
      <div className="h-16 rounded bg-slate-100" />
    </div>
  );
}

/** Holds the offline panel's place (same box and minimum height) until its code has loaded. */
/**
 * The offline panel until its code arrives: its heading and what it is for, already readable
 * (an empty grey box there looked broken), with outlines where its switches will be.
 */
export function OfflinePanelPlaceholder() {
  return (
    <div className={OFFLINE_PANEL_BOX} data-testid="offline-panel-placeholder">
      <p className="text-base font-semibold text-slate-900">Offline downloads</p>
      <p className="mt-1 text-sm text-slate-600">When you&apos;re offline, the downloads you choose wait here and start once you&apos;re back online.</p>
      <div aria-hidden className="mt-4 grid animate-pulse gap-3 sm:grid-cols-2">
        <div className="h-14 rounded-lg bg-slate-100" />
        <div className="h-14 rounded-lg bg-slate-100" />
      </div>
    </div>
  );
}

/** Shared by the live panel and its placeholder, so swapping them moves nothing. */
export const OFFLINE_PANEL_BOX = "mt-8 min-h-64 rounded-xl border border-slate-200 bg-slate-50 p-4 sm:min-h-48";
