import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { useOnlineStatus } from "#app/lib/hooks/use-online-status.ts";
import { postToWorker } from "#app/modules/offline/offline-previews.ts";
import { isRetryable } from "../api-client.ts";
import {
  DEFAULT_SETTINGS,
  clearQueue,
  dequeue,
  enqueue,
  parseQueueEntry,
  readSettings,
  sourceUrlFor,
  updateSettings,
  type LocalSettings,
} from "../local-settings.ts";
import { withRetries } from "../retry.ts";
import { runDownload } from "../run-download.ts";
import { SpeedMeter } from "../format-bytes.ts";
import { progressViewOf, type ActiveDownload } from "./use-format-downloads.ts";
import type { MediaOptions } from "../media-options.ts";

export interface QueueRunState {
  index: number;
  total: number;
  current: ActiveDownload;
}

/**
 * Spec §4 "Online/offline": offline shows a toast (the layout shows the banner), downloads queue
 * as "videoId:formatId" in the local settings; back online shows a toast and a dismissible restored
 * banner and offers the queue; processing starts each queued download in turn and reports the
 * outcome; the auto-process flag does that on reconnect; offline mode forces queueing.
 */
export function useOfflineQueue() {
  const browserOnline = useOnlineStatus();
  const [settings, setSettings] = useState<LocalSettings>(DEFAULT_SETTINGS);
  const [loaded, setLoaded] = useState(false);
  const [restored, setRestored] = useState(false);
  const [run, setRun] = useState<QueueRunState | null>(null);
  const running = useRef(false);
  const previousOnline = useRef<boolean | null>(null);

  const save = useCallback((change: (s: LocalSettings) => LocalSettings) => {
    const before = queuedVideoIds(readSettings());
    const next = updateSettings(change);
    setSettings(next);
    // the worker lets go of the preview of a video no longer waiting
    const after = queuedVideoIds(next);
    for (const videoId of before) if (!after.has(videoId)) postToWorker({ type: "REMOVED_FROM_OFFLINE", videoId });
    return next;
  }, []);

  useEffect(() => {
    setSettings(readSettings());
    setLoaded(true);
  }, []);

  const process = useCallback(async () => {
    if (running.current) return;
    if (!navigator.onLine) {
      toast.error("Cannot process download queue while offline", { description: "Please check your internet connection and try again." });
      return;
    }
    const entries = readSettings().downloadQueue;
    if (entries.length === 0) return;
    running.current = true;
    let completed = 0;
    const failed: string[] = [];
    try {
      for (const [index, entry] of entries.entries()) {
        const parsed = parseQueueEntry(entry);
        const url = parsed ? sourceUrlFor(readSettings(), parsed.videoId) : null;
        if (!parsed || !url) {
          failed.push(entry);
          continue;
        }
        const label = `${parsed.key} (${parsed.videoId})`;
        const base: ActiveDownload = { formatId: parsed.formatId, label, phase: "downloading", attempt: 1, progress: null };
        setRun({ index, total: entries.length, current: base });
        try {
          const meter = new SpeedMeter();
          const outcome = await withRetries(
            (attempt) => {
              setRun({ index, total: entries.length, current: { ...base, attempt } });
              return runDownload({
                url,
                format: parsed.formatId,
                language: parsed.language,
                // the tags switch, clip, audio track, loudness and SponsorBlock chosen when it was queued
                ...parsed.media,
                onTicket: (t) => setRun((r) => (r ? { ...r, current: { ...r.current, filename: t.filename, progress: { bytes: 0, total: t.bytes, speed: 0, state: "pending" } } } : r)),
                onProgress: (p) => {
                  const speed = meter.sample(p.bytes, performance.now());
                  setRun((r) => (r ? { ...r, current: { ...r.current, progress: progressViewOf(p, speed, r.current.progress) } } : r));
                },
              });
            },
            { shouldRetry: isRetryable },
          );
          completed += 1;
          setRun((r) => (r ? { ...r, current: { ...r.current, phase: "success", untracked: !outcome.tracked } } : r));
          save((s) => dequeue(s, entry));
        } catch {
          // The entry stays queued; the summary below tells the visitor.
          failed.push(entry);
        }
      }
    } finally {
      running.current = false;
      setRun(null);
    }
    const total = entries.length;
    if (failed.length === 0) {
      toast.success("Download queue processed", { description: `${completed} of ${total} download${total === 1 ? "" : "s"} completed.` });
    } else {
      toast.error("Some queued downloads failed", {
        description: `${completed} of ${total} completed; ${failed.length} still in the queue. You can try them again.`,
      });
    }
  }, [save]);

  // Online/offline transitions of the browser itself (not the first render).
  useEffect(() => {
    if (!loaded) return;
    const prev = previousOnline.current;
    previousOnline.current = browserOnline;
    if (browserOnline) save((s) => ({ ...s, lastOnline: new Date().toISOString() }));
    if (prev === null || prev === browserOnline) return;
    if (!browserOnline) {
      setRestored(false);
      toast.error("You're Offline", { description: "Please check your internet connection" });
      return;
    }
    setRestored(true);
    toast.success("You're back online", { description: "Your internet connection has been restored." });
    const current = readSettings();
    if (current.autoProcessQueue && !current.offlineMode && current.downloadQueue.length > 0) void process();
  }, [browserOnline, loaded, save, process]);

  const add = useCallback(
    (item: { videoId: string; formatId: string; language?: string; media?: MediaOptions; label: string; sourceUrl?: string; title?: string; thumbnail?: string }) => {
      let added = false;
      save((s) => {
        const r = enqueue(s, item);
        added = r.added;
        return r.settings;
      });
      // spec §7: the worker keeps this page and the video's title and thumbnail for the queue panel
      if (added) postToWorker({ type: "CACHED_FOR_OFFLINE", videoId: item.videoId, title: item.title, thumbnail: item.thumbnail });
      if (added) toast("Added to download queue", { description: `${item.label} will download when you're back online.` });
      else toast("Already in the download queue", { description: `${item.label} is waiting for the connection.` });
    },
    [save],
  );

  const remove = useCallback(
    (entry: string) => {
      save((s) => dequeue(s, entry));
      toast("Removed from download queue");
    },
    [save],
  );

  const clear = useCallback(() => {
    save(clearQueue);
    toast("Download queue cleared");
  }, [save]);

  const setOfflineMode = useCallback(
    (on: boolean) => {
      save((s) => ({ ...s, offlineMode: on }));
      if (on) toast("Offline mode enabled", { description: "Downloads are added to the queue instead of starting." });
      else toast("Offline mode disabled", { description: "Downloads start right away again." });
    },
    [save],
  );

  const setAutoProcess = useCallback(
    (on: boolean) => {
      save((s) => ({ ...s, autoProcessQueue: on }));
      toast(on ? "Auto-processing enabled" : "Auto-processing disabled", {
        description: on ? "Queued downloads start as soon as you're back online." : "You'll be asked before queued downloads start.",
      });
    },
    [save],
  );

  return {
    browserOnline,
    /** queue instead of downloading */
    queueing: !browserOnline || settings.offlineMode,
    settings,
    restored,
    dismissRestored: () => setRestored(false),
    run,
    add,
    remove,
    clear,
    process,
    setOfflineMode,
    setAutoProcess,
  };
}

export type OfflineQueue = ReturnType<typeof useOfflineQueue>;

function queuedVideoIds(s: LocalSettings): Set<string> {
  return new Set(s.downloadQueue.map((e) => parseQueueEntry(e)?.videoId).filter((id): id is string => Boolean(id)));
}
