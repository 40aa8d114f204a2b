/**
 * The visitor's local settings (spec §3 "Local settings"): last online time, offline-mode flag,
 * auto-process flag and the offline download queue of "videoId:formatId" strings. Kept in
 * localStorage so a queue survives a reload while the connection is down.
 */
import { SPONSORBLOCK_CATEGORIES, type MediaOptions, type SponsorBlockAction } from "./media-options.ts";
import type { ClipRequest } from "./clip-choice.ts";
import type { SponsorCategory } from "#engine/media/sponsorblock/segments.ts";

export const SETTINGS_KEY = "settings";

export interface LocalSettings {
  /** ISO time the browser was last seen online */
  lastOnline: string | null;
  offlineMode: boolean;
  autoProcessQueue: boolean;
  /** "videoId:formatId[@language][?media options]" entries, oldest first (see `queueEntry`) */
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

/**
 * A queued download: "videoId:formatId", "videoId:formatId@language" (a subtitle download in a
 * chosen language), and after either "?" and the media options that change the file, as URL
 * parameters (`tags=0`, `start`, `end`, `exact=1`, `audio`, `normalize=1`, `sb=sponsor,intro`,
 * `sba=chapters`, `subtitles=de` with `subtitlesMode=burn` when burned in, `chapters=split`), so a
 * queued clip or evened-out MP3 is the file chosen, not a whole one. Entries
 * stored before the options existed have none and still parse.
 */
export function queueEntry(videoId: string, formatId: string, language?: string, media: MediaOptions = {}): string {
  const options = encodeMediaOptions(media);
  return `${videoId}:${formatKey(formatId, language)}${options ? `?${options}` : ""}`;
}

function encodeMediaOptions(media: MediaOptions): string {
  const p = new URLSearchParams();
  if (media.tags === false) p.set("tags", "0");
  if (media.clip?.start !== undefined) p.set("start", String(media.clip.start));
  if (media.clip?.end !== undefined) p.set("end", String(media.clip.end));
  if (media.clip?.exact) p.set("exact", "1");
  if (media.audioLanguage) p.set("audio", media.audioLanguage);
  if (media.normalize === true) p.set("normalize", "1");
  if (media.sponsorblock && media.sponsorblock.categories.length > 0) {
    p.set("sb", media.sponsorblock.categories.join(","));
    p.set("sba", media.sponsorblock.action);
  }
  // the names of GET /api/v1/download's query, where "soft" is the default mode too
  if (media.subtitles) {
    p.set("subtitles", media.subtitles.language);
    if (media.subtitles.mode === "burn") p.set("subtitlesMode", "burn");
  }
  if (media.chapters === "split") p.set("chapters", "split");
  // URLSearchParams escapes ":" and "@", so the entry still splits at its last colon
  return p.toString();
}

const SECONDS = /^\d+(\.\d+)?$/;
/** a caption language as the API takes it ("de", "pt-BR", "zh-Hans"; engine/media/options/media-options.ts) */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

/** The options of an entry's "?…" part; null when one of them is not a value the picker could have queued. */
function decodeMediaOptions(query: string): MediaOptions | null {
  const p = new URLSearchParams(query);
  const media: MediaOptions = {};
  if (p.has("tags")) {
    if (p.get("tags") !== "0") return null;
    media.tags = false;
  }
  const clip: ClipRequest = {};
  for (const bound of ["start", "end"] as const) {
    const value = p.get(bound);
    if (value === null) continue;
    if (!SECONDS.test(value)) return null;
    clip[bound] = Number(value);
  }
  if (p.get("exact") === "1") clip.exact = true;
  if (Object.keys(clip).length > 0) media.clip = clip;
  const audio = p.get("audio");
  if (audio !== null) {
    if (audio === "") return null;
    media.audioLanguage = audio;
  }
  if (p.get("normalize") === "1") media.normalize = true;
  const sb = p.get("sb");
  if (sb !== null) {
    const categories = sb.split(",");
    const action = p.get("sba") ?? "cut";
    if (!categories.every((c): c is SponsorCategory => (SPONSORBLOCK_CATEGORIES as string[]).includes(c)) || (action !== "cut" && action !== "chapters")) return null;
    media.sponsorblock = { categories, action: action as SponsorBlockAction };
  }
  const subtitles = p.get("subtitles");
  const mode = p.get("subtitlesMode") ?? "soft";
  if (subtitles !== null) {
    if (!LANGUAGE_TAG.test(subtitles) || (mode !== "soft" && mode !== "burn")) return null;
    media.subtitles = { language: subtitles, mode };
  } else if (p.has("subtitlesMode")) return null;
  if (p.has("chapters")) {
    if (p.get("chapters") !== "split") return null;
    media.chapters = "split";
  }
  return media;
}

/**
 * Split a queue entry (see `queueEntry`) at the last colon (format ids, language tags and the
 * escaped options never contain one, nor format ids and language tags an "@" or a "?"). `key`
 * is all after the colon: what the entry's label is kept under.
 */
export function parseQueueEntry(entry: string): { videoId: string; formatId: string; language?: string; key: string; media?: MediaOptions } | null {
  const at = entry.lastIndexOf(":");
  if (at <= 0 || at === entry.length - 1) return null;
  const key = entry.slice(at + 1);
  const q = key.indexOf("?");
  const media = q < 0 ? undefined : decodeMediaOptions(key.slice(q + 1));
  if (media === null) return null;
  const [formatId, language, ...rest] = (q < 0 ? key : key.slice(0, q)).split("@");
  if (!formatId || language === "" || rest.length > 0) return null;
  return { videoId: entry.slice(0, at), formatId, key, ...(language ? { language } : {}), ...(media ? { media } : {}) };
}

/** Add one download to the queue; false when the same entry is already waiting. */
export function enqueue(
  s: LocalSettings,
  item: { videoId: string; formatId: string; language?: string; media?: MediaOptions; sourceUrl?: string; label?: string },
): { settings: LocalSettings; added: boolean } {
  const entry = queueEntry(item.videoId, item.formatId, item.language, item.media);
  if (s.downloadQueue.includes(entry)) return { settings: s, added: false };
  const queueSources = item.sourceUrl ? { ...s.queueSources, [item.videoId]: item.sourceUrl } : s.queueSources;
  const queueLabels = item.label ? { ...s.queueLabels, [entry.slice(item.videoId.length + 1)]: item.label } : s.queueLabels;
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
