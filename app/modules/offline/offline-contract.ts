/**
 * Names the service worker (worker/service-worker.ts) and the pages share: the worker's URL,
 * its caches, the messages a page may post to it and where it keeps a queued item's preview.
 * Plain data only: this file is bundled into both.
 */
export const SERVICE_WORKER_URL = "/service-worker.js";

/** The static page shown for a page that was never saved, precached with the assets. */
export const OFFLINE_FALLBACK_URL = "/offline.html";

/**
 * Pages fetched without cookies when the worker installs, so the site opens and every tool works
 * offline after one visit, even for pages not yet visited.
 */
export const SHELL_PAGES = ["/", "/tools/converters", "/tools/media", "/tools/colors", "/tools/text", "/connection-status"] as const;

export const CACHE_PREFIX = "vidfetch-";
export const CACHES = {
  /** SHELL_PAGES of one build: `vidfetch-shell-<build>` */
  shellPrefix: `${CACHE_PREFIX}shell-`,
  /** pages and their route data as visited, newest kept */
  pages: `${CACHE_PREFIX}pages`,
  /** our own images (article covers, guides) */
  images: `${CACHE_PREFIX}images`,
  /** thumbnails from video hosts, as the preview showed them */
  thumbnails: `${CACHE_PREFIX}thumbnails`,
  /** what the offline queue shows: one JSON per queued video and its thumbnail, kept until it leaves the queue */
  previews: `${CACHE_PREFIX}offline-previews`,
} as const;

export const PAGES_MAX_ENTRIES = 60;
export const IMAGES_MAX_ENTRIES = 60;
export const THUMBNAILS_MAX_ENTRIES = 30;

/** A queued item's preview data, as kept by the worker. */
export interface OfflinePreview {
  videoId: string;
  title: string | null;
  thumbnail: string | null;
  savedAt: string;
}

export type WorkerMessage =
  /** spec §7: posted when a download is queued offline; without videoId the sender's page is saved */
  | { type: "CACHED_FOR_OFFLINE"; videoId?: string; title?: string; thumbnail?: string }
  /** the queued item left the queue (downloaded, removed or cleared) */
  | { type: "REMOVED_FROM_OFFLINE"; videoId: string }
  /** the visitor chose "Reload" on the update toast: the waiting worker takes over */
  | { type: "SKIP_WAITING" }
  /** a page saw its visitor signed out (any way: logout, expiry): drop every kept page */
  | { type: "SIGNED_OUT" };

/** The worker's answer to CACHED_FOR_OFFLINE, sent to the page that posted it. */
export interface CachedForOfflineReply {
  type: "CACHED_FOR_OFFLINE_DONE";
  videoId: string | null;
  /** the thumbnail was kept too (it had been seen, or could be fetched) */
  thumbnail: boolean;
}

/** The cache key of a queued item's preview JSON (same origin, never fetched from the network). */
export function previewKey(videoId: string): string {
  return `/__offline-preview/${encodeURIComponent(videoId)}`;
}

const MAX_ID = 2048;
const MAX_TITLE = 300;

/** A page's message, checked: anything malformed is ignored by the worker. */
export function parseWorkerMessage(data: unknown): WorkerMessage | null {
  if (!data || typeof data !== "object") return null;
  const m = data as Record<string, unknown>;
  const text = (v: unknown, max: number) => (typeof v === "string" && v.length > 0 && v.length <= max ? v : undefined);
  switch (m.type) {
    case "CACHED_FOR_OFFLINE": {
      if (m.videoId === undefined) return { type: "CACHED_FOR_OFFLINE" };
      const videoId = text(m.videoId, MAX_ID);
      if (!videoId) return null;
      const thumbnail = text(m.thumbnail, MAX_ID);
      return {
        type: "CACHED_FOR_OFFLINE",
        videoId,
        title: text(m.title, MAX_TITLE),
        thumbnail: thumbnail && /^https?:\/\//i.test(thumbnail) ? thumbnail : undefined,
      };
    }
    case "REMOVED_FROM_OFFLINE": {
      const videoId = text(m.videoId, MAX_ID);
      return videoId ? { type: "REMOVED_FROM_OFFLINE", videoId } : null;
    }
    case "SKIP_WAITING":
      return { type: "SKIP_WAITING" };
    case "SIGNED_OUT":
      return { type: "SIGNED_OUT" };
    default:
      return null;
  }
}
