/**
 * The visitor's local settings (spec §3 "Local settings"): last online time, offline-mode flag,
 * auto-process flag and the offline download queue of "videoId:formatId" strings. Kept in
 * localStorage so a queue survives a reload while the connection is down.
 */
export const SETTINGS_KEY = "settings";

export interface LocalSettings {
  /** ISO time the browser was last seen online */
  lastOnline: string | null;
  offlineMode: boolean;
  autoProcessQueue: boolean;
  /** "videoId:formatId" entries, oldest first */
  downloadQueue: string[];
  /** link to resolve for queued ids that are not YouTube ids (generic media) */
  queueSources: Record<string, string>;
  /** the label of each queued format ("MP4 720p HD"; a subtitle language's "srt@de" has its own), so the queue reads the same after a reload */
  queueLabels: Record<string, string>;
}

export const DEFAULT_SETTINGS: LocalSettings = {
  lastOnline: null,
  offlineMode: false,
  autoProcessQueue: false,
  downloadQueue: [],
  queueSources: {},
  queueLabels: {},
};

type StorageLike = Pick<Storage, "getItem" | "setItem">;

function storage(): StorageLike | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage disabled (privacy mode, sandboxed frame): settings live for this page only.
    return null;
  }
}

/** Read the settings, repairing anything missing or malformed instead of failing. */
export function readSettings(store: StorageLike | null = storage()): LocalSettings {
  const raw = store?.getItem(SETTINGS_KEY);
  if (!raw) return { ...DEFAULT_SETTINGS, downloadQueue: [], queueSources: {}, queueLabels: {} };
  let parsed: Partial<LocalSettings>;
  try {
    parsed = JSON.parse(raw) as Partial<LocalSettings>;
  } catch {
    // A corrupt value is replaced by the defaults on the next write.
    parsed = {};
  }
  const queue = Array.isArray(parsed.downloadQueue) ? parsed.downloadQueue.filter((e): e is string => typeof e === "string" && parseQueueEntry(e) !== null) : [];
  const sources = stringRecord(parsed.queueSources);
  const labels = stringRecord(parsed.queueLabels);
  return {
    lastOnline: typeof parsed.lastOnline === "string" ? parsed.lastOnline : null,
    offlineMode: parsed.offlineMode === true,
    autoProcessQueue: parsed.autoProcessQueue === true,
    downloadQueue: queue,
    queueSources: sources,
    queueLabels: labels,
  };
}

/** The string values of a stored object (anything else in it is dropped). */
function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object") return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}

export function writeSettings(next: LocalSettings, store: StorageLike | null = storage()): void {
  try {
    store?.setItem(SETTINGS_KEY, JSON.stringify(next));
  } catch {
    // Quota exceeded or storage disabled: the in-memory copy still drives this page.
    return;
  }
}

export function updateSettings(change: (s: LocalSettings) => LocalSettings, store: StorageLike | null = storage()): LocalSettings {
  const next = change(readSettings(store));
  writeSettings(next, store);
  return next;
}

/** A queued format: "srt", or with its subtitle language "srt@de" (what queueLabels is keyed by). */
export function formatKey(formatId: string, language?: string): string {
  return language ? `${formatId}@${language}` : formatId;
}

export function queueEntry(videoId: string, formatId: string, language?: string): string {
  return `${videoId}:${formatKey(formatId, language)}`;
}

/**
 * Split "videoId:formatId" (or "videoId:formatId@language", a subtitle download in a chosen
 * language) at the last colon (format ids and language tags never contain one, nor an "@").
 */
export function parseQueueEntry(entry: string): { videoId: string; formatId: string; language?: string; key: string } | null {
  const at = entry.lastIndexOf(":");
  if (at <= 0 || at === entry.length - 1) return null;
  const key = entry.slice(at + 1);
  const [formatId, language, ...rest] = key.split("@");
  if (!formatId || language === "" || rest.length > 0) return null;
  return language ? { videoId: entry.slice(0, at), formatId, language, key } : { videoId: entry.slice(0, at), formatId, key };
}

/** Add one download to the queue; false when the same entry is already waiting. */
export function enqueue(
  s: LocalSettings,
  item: { videoId: string; formatId: string; language?: string; sourceUrl?: string; label?: string },
): { settings: LocalSettings; added: boolean } {
  const entry = queueEntry(item.videoId, item.formatId, item.language);
  if (s.downloadQueue.includes(entry)) return { settings: s, added: false };
  const queueSources = item.sourceUrl ? { ...s.queueSources, [item.videoId]: item.sourceUrl } : s.queueSources;
  const queueLabels = item.label ? { ...s.queueLabels, [formatKey(item.formatId, item.language)]: item.label } : s.queueLabels;
  return { settings: { ...s, downloadQueue: [...s.downloadQueue, entry], queueSources, queueLabels }, added: true };
}

/** Remove one entry, dropping its source link and label when no other entry needs them. */
export function dequeue(s: LocalSettings, entry: string): LocalSettings {
  const downloadQueue = s.downloadQueue.filter((e) => e !== entry);
  const left = downloadQueue.map((e) => parseQueueEntry(e));
  const videos = new Set(left.map((p) => p?.videoId));
  const formats = new Set(left.map((p) => p?.key));
  const queueSources = Object.fromEntries(Object.entries(s.queueSources).filter(([id]) => videos.has(id)));
  const queueLabels = Object.fromEntries(Object.entries(s.queueLabels).filter(([id]) => formats.has(id)));
  return { ...s, downloadQueue, queueSources, queueLabels };
}

export function clearQueue(s: LocalSettings): LocalSettings {
  return { ...s, downloadQueue: [], queueSources: {}, queueLabels: {} };
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** The link to hand the API for a queued entry. */
export function sourceUrlFor(s: LocalSettings, videoId: string): string | null {
  const stored = s.queueSources[videoId];
  if (stored) return stored;
  return YOUTUBE_ID.test(videoId) ? `https://www.youtube.com/watch?v=${videoId}` : null;
}
