import { ListChecks, Trash2, Wifi, X } from "#app/components/icons.ts";
import { Button } from "#app/components/ui/button.tsx";
import { useOfflinePreviews } from "#app/modules/offline/offline-previews.ts";
import { parseQueueEntry } from "../local-settings.ts";
import type { OfflineQueue } from "../hooks/use-offline-queue.ts";
import { DownloadProgress } from "./download-progress.tsx";
import { OptionSwitch } from "./option-switch.tsx";
import { OFFLINE_PANEL_BOX } from "./preview-skeleton.tsx";

function Toggle(props: { checked: boolean; onChange: (v: boolean) => void; label: string; hint: string; disabled?: boolean }) {
  return <OptionSwitch {...props} className="" />;
}

const STATIC_SETTINGS = { downloadQueue: [] as string[], offlineMode: false, autoProcessQueue: false };
const noop = () => {};

/**
 * The restored banner, the queue offer (Process Downloads / Cancel), the queue and its settings.
 * Without `queue` (before the download code has loaded) it renders the same box, inert, so the
 * page does not move when the live one takes its place.
 */
export function OfflineQueuePanel({ queue, labelFor = (id) => id }: { queue: OfflineQueue | null; labelFor?: (formatKey: string) => string }) {
  const settings = queue?.settings ?? STATIC_SETTINGS;
  const restored = queue?.restored ?? false;
  const run = queue?.run ?? null;
  const browserOnline = queue?.browserOnline ?? true;
  const entries = settings.downloadQueue;
  const canOffer = entries.length > 0 && browserOnline && !settings.offlineMode && !run;
  // titles and thumbnails the service worker kept, so the queue reads well offline
  const previews = useOfflinePreviews(entries.map((e) => parseQueueEntry(e)?.videoId ?? ""));
  return (
    <section aria-labelledby="offline-heading" className={OFFLINE_PANEL_BOX}>
      {restored ? (
        <div role="status" className="mb-4 flex items-center justify-between gap-3 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="restored-banner">
          <span className="flex items-center gap-2">
            <Wifi aria-hidden className="size-4" /> <strong>Connection restored.</strong> You&apos;re back online.
          </span>
          <button type="button" onClick={queue?.dismissRestored} aria-label="Dismiss connection restored message" className="rounded p-1 hover:bg-emerald-100">
            <X aria-hidden className="size-4" />
          </button>
        </div>
      ) : null}
      <h2 id="offline-heading" className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <ListChecks aria-hidden className="size-5 text-brand-600" /> Offline downloads
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {entries.length === 0
          ? "When you're offline, the downloads you choose wait here and start once you're back online."
          : `${entries.length} download${entries.length === 1 ? "" : "s"} waiting in the queue.`}
      </p>
      {entries.length > 0 ? (
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Download queue">
          {entries.map((entry) => {
            const parsed = parseQueueEntry(entry);
            const preview = parsed ? previews.get(parsed.videoId) : undefined;
            const what = preview?.title ?? (parsed && parsed.videoId.length <= 40 ? parsed.videoId : "media link");
            const label = parsed ? `${labelFor(parsed.key)} · ${what}` : entry;
            return (
              <li key={entry} className="flex items-center justify-between gap-2 px-3 py-2 text-sm" data-testid="queue-entry">
                <span className="flex min-w-0 items-center gap-2">
                  {preview?.thumbnail ? <img src={preview.thumbnail} alt="" width={64} height={36} className="h-9 w-16 shrink-0 rounded object-cover" data-testid="queue-thumbnail" /> : null}
                  <span className="min-w-0 truncate text-slate-800">{label}</span>
                </span>
                <button type="button" onClick={() => queue?.remove(entry)} disabled={!queue || Boolean(run)} className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-destructive disabled:opacity-50">
                  <Trash2 aria-hidden className="size-4" />
                  <span className="sr-only">Remove {label} from the queue</span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {canOffer ? (
        <div className="mt-3 flex flex-wrap gap-2" data-testid="queue-offer">
          <Button type="button" onClick={() => void queue?.process()}>
            Process Downloads
          </Button>
          <Button type="button" variant="outline" onClick={queue?.clear}>
            Cancel
          </Button>
        </div>
      ) : null}
      {run ? (
        <div className="mt-3">
          <p className="text-sm font-medium text-slate-800">
            Processing {run.index + 1} of {run.total}...
          </p>
          <DownloadProgress active={run.current} />
        </div>
      ) : null}
      <div className="mt-4 grid gap-3 sm:grid-cols-2">
        <Toggle disabled={!queue} checked={settings.offlineMode} onChange={queue?.setOfflineMode ?? noop} label="Offline mode" hint="Queue downloads instead of starting them." />
        <Toggle
          checked={settings.autoProcessQueue}
          disabled={!queue}
          onChange={queue?.setAutoProcess ?? noop}
          label="Process the queue automatically"
          hint="Start queued downloads as soon as you're back online."
        />
      </div>
    </section>
  );
}
