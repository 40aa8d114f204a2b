/**
 * VidFetch's service worker, served at /service-worker.js (spec §7; issue 10 §2). Built by
 * ../service-worker-build.ts after the client bundle: Workbox injects the precache list
 * (every script and style of this build, the icons, the manifest and the offline page) and
 * SHELL_REVISION names the build.
 *
 * - The assets are precached, so every tool runs offline after one visit.
 * - The shell pages (home, the four tools, connection status) are fetched without cookies at
 *   install, so they open offline even before being visited, and show no visitor's account.
 * - Pages and route data: network first; a page meant for anyone is kept as visited; offline,
 *   the kept copy, else the shell copy, else the offline page.
 * - Downloads, API answers and signed links (/api/…) are never handled nor kept.
 * - CACHED_FOR_OFFLINE keeps a queued video's title and thumbnail for the queue panel.
 * - A new build waits until the visitor chooses "Reload" on the page's update toast.
 */
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { NetworkFirst, StaleWhileRevalidate } from "workbox-strategies";
import type { WorkboxPlugin } from "workbox-core/types.js";
import {
  CACHES,
  IMAGES_MAX_ENTRIES,
  OFFLINE_FALLBACK_URL,
  PAGES_MAX_ENTRIES,
  SHELL_PAGES,
  THUMBNAILS_MAX_ENTRIES,
  parseWorkerMessage,
  previewKey,
  type CachedForOfflineReply,
  type OfflinePreview,
} from "../offline-contract.ts";
import { classifyRequest, isSignOutRequest, isStorablePage, shellPathFor, type RequestKind } from "./policy.ts";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };
declare const SHELL_REVISION: string;

const SHELL_CACHE = `${CACHES.shellPrefix}${SHELL_REVISION}`;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// ---- install and activate -------------------------------------------------------------------

async function cacheShellPages(): Promise<void> {
  const cache = await caches.open(SHELL_CACHE);
  await Promise.all(
    SHELL_PAGES.map(async (path) => {
      try {
        // no cookies: the kept copy must not carry a signed-in visitor's name
        const res = await fetch(new Request(path, { credentials: "omit", cache: "reload" }));
        if (isStorablePage(res)) await cache.put(path, res);
      } catch {
        // a shell page that fails now is fetched again by the next build's worker
      }
    }),
  );
}

self.addEventListener("install", (event) => {
  event.waitUntil(cacheShellPages());
});

/** The pages open when this worker first takes control were loaded before it: keep them too. */
async function keepOpenPages(): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window" });
  await Promise.all(windows.map((c) => keepPage(c.url)));
}

async function keepPage(url: string): Promise<void> {
  if (classifyRequest({ url, method: "GET", mode: "navigate", destination: "document" }, self.location.origin) !== "page") return;
  try {
    const res = await fetch(url, { credentials: "same-origin" });
    if (isStorablePage(res)) await (await caches.open(CACHES.pages)).put(url, res);
  } catch {
    // offline already: nothing to keep
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith(CACHES.shellPrefix) && n !== SHELL_CACHE).map((n) => caches.delete(n)));
      await self.clients.claim();
      await keepOpenPages();
    })(),
  );
});

// ---- requests -----------------------------------------------------------------------------------

const storablePages: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (isStorablePage(response) ? response : null),
};

/** Offline and never kept: the shell copy of the same path, else the offline page. */
const pageFallback: WorkboxPlugin = {
  handlerDidError: async ({ request }) => {
    const shellPath = shellPathFor(request.url, SHELL_PAGES);
    const shell = shellPath ? await caches.match(shellPath, { cacheName: SHELL_CACHE }) : undefined;
    return shell ?? (await matchPrecache(OFFLINE_FALLBACK_URL));
  },
};

/**
 * Pages and route data are revalidated with us every time. An anonymous page's
 * `stale-while-revalidate` (meant for shared caches) would otherwise let the browser's HTTP cache
 * hand the worker the anonymous copy of a page the visitor now sees signed in (a 304 costs
 * little). A plugin: Workbox ignores a strategy's fetch options for navigations.
 */
const revalidate: WorkboxPlugin = {
  requestWillFetch: async ({ request }) => new Request(request, { cache: "no-cache" }),
};

const pages = new NetworkFirst({
  cacheName: CACHES.pages,
  plugins: [revalidate, storablePages, new ExpirationPlugin({ maxEntries: PAGES_MAX_ENTRIES, purgeOnQuotaError: true }), pageFallback],
});

const routeData = new NetworkFirst({
  cacheName: CACHES.pages,
  plugins: [revalidate, storablePages, new ExpirationPlugin({ maxEntries: PAGES_MAX_ENTRIES, purgeOnQuotaError: true })],
});

const images = new StaleWhileRevalidate({
  cacheName: CACHES.images,
  plugins: [new ExpirationPlugin({ maxEntries: IMAGES_MAX_ENTRIES, purgeOnQuotaError: true })],
});

/** Thumbnails are opaque (another origin): status 0 is the only answer we can see. */
const thumbnails = new NetworkFirst({
  cacheName: CACHES.thumbnails,
  plugins: [
    { cacheWillUpdate: async ({ response }) => (response.status === 0 || response.status === 200 ? response : null) },
    new ExpirationPlugin({ maxEntries: THUMBNAILS_MAX_ENTRIES, purgeOnQuotaError: true }),
    { handlerDidError: async ({ request }) => caches.match(request.url, { cacheName: CACHES.previews }) },
  ],
});

const handlers: Record<RequestKind, NetworkFirst | StaleWhileRevalidate> = { page: pages, "route-data": routeData, image: images, thumbnail: thumbnails };

for (const kind of Object.keys(handlers) as RequestKind[]) {
  registerRoute(({ request }) => classifyRequest(request, self.location.origin) === kind, handlers[kind]);
}

/**
 * Signing out drops every kept page and route data. None should hold an account (personal
 * answers are `private, no-store`, which isStorablePage refuses), but a copy kept by an older
 * build or an older server must not outlive the session. The request is seen here whether the
 * logout is a form post, its `.data` fetch or a script calling the auth library; a page that
 * finds its visitor signed out any other way (expiry) posts SIGNED_OUT.
 */
const forgetPages = () => caches.delete(CACHES.pages);

self.addEventListener("fetch", (event) => {
  if (isSignOutRequest(event.request, self.location.origin)) event.waitUntil(forgetPages());
});

// ---- messages from pages ------------------------------------------------------------------------

/** Keep a queued video's thumbnail: from what the preview already showed, else from the network. */
async function keepThumbnail(url: string): Promise<boolean> {
  const previews = await caches.open(CACHES.previews);
  if (await previews.match(url)) return true;
  const seen = await caches.match(url, { cacheName: CACHES.thumbnails });
  if (seen) {
    await previews.put(url, seen);
    return true;
  }
  try {
    const res = await fetch(url, { mode: "no-cors", credentials: "omit" });
    if (res.status !== 0 && res.status !== 200) return false;
    await previews.put(url, res);
    return true;
  } catch {
    return false;
  }
}

async function keepPreview(videoId: string, title: string | undefined, thumbnail: string | undefined): Promise<boolean> {
  const kept = thumbnail ? await keepThumbnail(thumbnail) : false;
  const preview: OfflinePreview = { videoId, title: title ?? null, thumbnail: kept ? (thumbnail ?? null) : null, savedAt: new Date().toISOString() };
  const previews = await caches.open(CACHES.previews);
  await previews.put(previewKey(videoId), new Response(JSON.stringify(preview), { headers: { "content-type": "application/json" } }));
  return kept;
}

async function dropPreview(videoId: string): Promise<void> {
  const previews = await caches.open(CACHES.previews);
  const res = await previews.match(previewKey(videoId));
  if (!res) return;
  const preview = (await res.json()) as OfflinePreview;
  await previews.delete(previewKey(videoId));
  if (!preview.thumbnail) return;
  // the thumbnail goes too, unless another queued item shows the same one
  for (const key of await previews.keys()) {
    if (!new URL(key.url).pathname.startsWith("/__offline-preview/")) continue;
    const other = (await (await previews.match(key))?.json()) as OfflinePreview | undefined;
    if (other?.thumbnail === preview.thumbnail) return;
  }
  await previews.delete(preview.thumbnail);
}

self.addEventListener("message", (event) => {
  // only our own pages talk to the worker
  const source = event.source as Client | null;
  if (!source || new URL(source.url).origin !== self.location.origin) return;
  const message = parseWorkerMessage(event.data);
  if (!message) return;
  switch (message.type) {
    case "SKIP_WAITING":
      event.waitUntil(self.skipWaiting());
      return;
    case "SIGNED_OUT":
      event.waitUntil(forgetPages());
      return;
    case "REMOVED_FROM_OFFLINE":
      event.waitUntil(dropPreview(message.videoId));
      return;
    case "CACHED_FOR_OFFLINE":
      event.waitUntil(
        (async () => {
          await keepPage(source.url);
          const thumbnail = message.videoId ? await keepPreview(message.videoId, message.title, message.thumbnail) : false;
          const reply: CachedForOfflineReply = { type: "CACHED_FOR_OFFLINE_DONE", videoId: message.videoId ?? null, thumbnail };
          source.postMessage(reply);
        })(),
      );
      return;
  }
});
