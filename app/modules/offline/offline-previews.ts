/**
 * The page's side of CACHED_FOR_OFFLINE: tell the worker when a video is queued or leaves the
 * queue, and read back the title and thumbnail it keeps, so the queue panel can show them with
 * no connection (the worker answers the thumbnail's request from its cache).
 */
import { useEffect, useState } from "react";
import { CACHES, previewKey, type CachedForOfflineReply, type OfflinePreview, type WorkerMessage } from "./offline-contract.ts";

export function postToWorker(message: WorkerMessage): void {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.controller?.postMessage(message);
}

export async function readOfflinePreviews(videoIds: readonly string[]): Promise<Map<string, OfflinePreview>> {
  const found = new Map<string, OfflinePreview>();
  if (typeof caches === "undefined" || videoIds.length === 0) return found;
  try {
    const cache = await caches.open(CACHES.previews);
    for (const id of new Set(videoIds)) {
      const res = await cache.match(previewKey(id));
      if (res) found.set(id, (await res.json()) as OfflinePreview);
    }
  } catch {
    // storage unavailable (private window, quota): the panel shows ids and formats only
  }
  return found;
}

/** The kept previews of these ids, read again whenever the worker says it kept a new one. */
export function useOfflinePreviews(videoIds: readonly string[]): Map<string, OfflinePreview> {
  const [previews, setPreviews] = useState<Map<string, OfflinePreview>>(() => new Map());
  const [version, setVersion] = useState(0);
  const key = [...new Set(videoIds)].sort().join("\n");

  useEffect(() => {
    if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      if ((event.data as CachedForOfflineReply | null)?.type === "CACHED_FOR_OFFLINE_DONE") setVersion((v) => v + 1);
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, []);

  useEffect(() => {
    let live = true;
    void readOfflinePreviews(key ? key.split("\n") : []).then((p) => {
      if (live) setPreviews(p);
    });
    return () => {
      live = false;
    };
  }, [key, version]);

  return previews;
}

/**
 * A video's thumbnail, fetched once while online so the worker has it if the video is queued
 * offline later (a YouTube preview is an embed, whose images the worker never sees). Only when a
 * worker controls the page: without one the image would serve no purpose.
 */
export function keepThumbnailAtHand(url: string | undefined): void {
  if (!url || typeof navigator === "undefined" || !navigator.serviceWorker?.controller || !navigator.onLine) return;
  const img = new Image();
  img.decoding = "async";
  img.src = url;
}
