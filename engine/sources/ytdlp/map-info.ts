/**
 * yt-dlp's JSON (`-J`) onto our vocabulary: its metadata onto VideoDetails, its formats onto
 * UpstreamStreams the format catalogue (engine/formats.ts) plans from. yt-dlp only describes:
 * every URL it names is fetched later by our own outbound fetch, never by yt-dlp.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { SitePlatform } from "#common/links.ts";
import {
  formatCount,
  formatDuration,
  formatPublishedDate,
  formatSubscribers,
  formatViews,
  isMonetized,
  truncateDescription,
} from "../../details/format.ts";
import { isLanguageTag } from "../../captions/languages.ts";
import { EngineError } from "../../errors.ts";
import type { CaptionTrack, Chapter, Platform, Thumbnail, UpstreamStream, VideoDetails } from "../../types.ts";
import { chaptersOf } from "../../media/chapters/chapters.ts";
import { normaliseProbeCodec, parseCodecs } from "../generic/codecs.ts";
import type { UpstreamRequest } from "../../types.ts";
import { cookieJarOf, requestOf } from "./format-request.ts";

const num = z.number().finite().nullish().catch(null);
const str = z.string().nullish().catch(null);

const formatSchema = z.object({
  format_id: z.union([z.string(), z.number()]).transform(String).catch(""),
  url: str,
  manifest_url: str,
  protocol: str,
  ext: str,
  vcodec: str,
  acodec: str,
  width: num,
  height: num,
  fps: num,
  tbr: num,
  abr: num,
  vbr: num,
  asr: num,
  filesize: num,
  filesize_approx: num,
  language: str,
  /** YouTube's audio tracks: 10 the original, 5 the default, -1 another language, -10 descriptive audio */
  language_preference: num,
  has_drm: z.boolean().nullish().catch(null),
  format_note: str,
  /** yt-dlp's own request size for the site (http_chunk_size: 10 MiB for YouTube, which throttles longer requests) */
  downloader_options: z.object({ http_chunk_size: num }).nullish().catch(null),
  /** the headers yt-dlp would send for this format (before 2023.07, its cookies among them as `Cookie`) */
  http_headers: z.record(z.string(), z.unknown()).nullish().catch(null),
  /** yt-dlp 2023.07 on: the cookies this format's URL needs, with their Domain/Path/Secure/Expires */
  cookies: str,
});
export type YtdlpFormat = z.infer<typeof formatSchema>;

const infoSchema = z.object({
  _type: str,
  id: z.union([z.string(), z.number()]).transform(String).nullish().catch(null),
  title: str,
  fulltitle: str,
  description: str,
  uploader: str,
  uploader_id: str,
  channel: str,
  channel_id: str,
  creator: str,
  channel_follower_count: num,
  duration: num,
  view_count: num,
  like_count: num,
  timestamp: num,
  upload_date: str,
  release_timestamp: num,
  thumbnail: str,
  thumbnails: z
    .array(z.object({ url: z.string(), width: num, height: num, id: z.union([z.string(), z.number()]).nullish().catch(null) }).catch({ url: "" }))
    .nullish()
    .catch(null),
  tags: z.array(z.string()).nullish().catch(null),
  is_live: z.boolean().nullish().catch(null),
  live_status: str,
  availability: str,
  webpage_url: str,
  extractor_key: str,
  url: str,
  ext: str,
  protocol: str,
  vcodec: str,
  acodec: str,
  width: num,
  height: num,
  filesize: num,
  manifest_url: str,
  /** a single-format document's request needs (a direct file a page embeds) */
  http_headers: z.record(z.string(), z.unknown()).nullish().catch(null),
  cookies: str,
  formats: z.array(z.unknown()).nullish().catch(null),
  entries: z.array(z.unknown()).nullish().catch(null),
  /** {language: [one entry per file format]}: the uploader's tracks, and speech recognition's */
  subtitles: z.record(z.string(), z.unknown()).nullish().catch(null),
  automatic_captions: z.record(z.string(), z.unknown()).nullish().catch(null),
  /** yt-dlp's chapters: [{start_time, end_time, title}], seconds */
  chapters: z.array(z.object({ start_time: num, title: str }).catch({ start_time: null, title: null })).nullish().catch(null),
});
export type YtdlpInfo = z.infer<typeof infoSchema>;

/**
 * Parses the document yt-dlp printed. A playlist (a post with several videos) gives its first
 * video entry; a document that is not yt-dlp's JSON is an upstream failure, not a crash.
 */
export function parseInfo(stdout: string): YtdlpInfo {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (cause) {
    throw new EngineError("upstream.api_error", { detail: `yt-dlp printed no JSON (${stdout.length} bytes)`, cause });
  }
  const parsed = infoSchema.safeParse(json);
  if (!parsed.success) throw new EngineError("upstream.api_error", { detail: "yt-dlp printed JSON of another shape" });
  let info = parsed.data;
  for (let depth = 0; info._type === "playlist" && depth < 3; depth++) {
    const first = (info.entries ?? []).map((e) => infoSchema.safeParse(e)).find((r) => r.success && (r.data.formats?.length || r.data.url || r.data.entries));
    if (!first?.success) throw new EngineError("video.no_formats", { detail: "yt-dlp found a playlist without videos" });
    info = first.data;
  }
  // yt-dlp was led (a redirect, a meta refresh) to a scheme other than http(s): never ours to read
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(info.webpage_url ?? "")?.[1]?.toLowerCase();
  if (scheme && scheme !== "http" && scheme !== "https") throw new EngineError("link.unsupported", { detail: `yt-dlp was led to a ${scheme}: address` });
  if (info.is_live || info.live_status === "is_live") throw new EngineError("video.live", { detail: "yt-dlp reports a live stream" });
  if (info.live_status === "is_upcoming") throw new EngineError("video.upcoming", { detail: "yt-dlp reports an upcoming stream" });
  return info;
}

/** The formats of an info document; a single-format document (a direct file) is its own format. */
export function formatsOf(info: YtdlpInfo): YtdlpFormat[] {
  const raw = info.formats && info.formats.length > 0 ? info.formats : info.url ? [{ ...info, format_id: "0" }] : [];
  return raw.map((f) => formatSchema.safeParse(f)).flatMap((r) => (r.success ? [r.data] : []));
}

/** yt-dlp's codec names ("avc1.64001F", "h264", "mp4a.40.2", "none", null) as our families. */
function codecFamily(name: string | null | undefined, kind: "video" | "audio"): string | undefined | null {
  if (name === "none") return null; // the track is absent
  if (!name) return undefined; // unknown
  const split = parseCodecs(name);
  const family = kind === "video" ? split.vcodec : split.acodec;
  return family ?? normaliseProbeCodec(name.split(".")[0]!);
}

const DIRECT_PROTOCOLS = new Set(["http", "https"]);
const MANIFEST_PROTOCOLS = new Set(["m3u8", "m3u8_native", "http_dash_segments", "http_dash_segments_generator"]);

const CONTAINERS: Record<string, UpstreamStream["container"]> = { mp4: "mp4", m4v: "mp4", mov: "mp4", webm: "webm", m4a: "m4a", mp3: "mp3", aac: "aac", ts: "ts" };

/** How our engine can reach one format: as a direct file, through its manifest, or not at all. */
export type FormatRoute =
  | { type: "direct"; stream: UpstreamStream; codecsKnown: boolean }
  | { type: "manifest"; manifestUrl: string; request?: UpstreamRequest }
  | { type: "skip"; reason: string };

function urlOrNull(text: string): URL | null {
  return URL.canParse(text) ? new URL(text) : null;
}

export function routeFormat(f: YtdlpFormat): FormatRoute {
  if (f.has_drm) return { type: "skip", reason: "DRM" };
  const protocol = (f.protocol ?? "https").split("+")[0]!;
  if (MANIFEST_PROTOCOLS.has(protocol)) {
    if (!f.manifest_url) return { type: "skip", reason: `${protocol} without a manifest URL` };
    const request = requestOf(f, urlOrNull(f.url ?? f.manifest_url));
    return { type: "manifest", manifestUrl: f.manifest_url, ...(request ? { request } : {}) };
  }
  if (!DIRECT_PROTOCOLS.has(protocol) || !f.url) return { type: "skip", reason: `protocol ${protocol}` };
  if (/^(mhtml|jpg|jpeg|png|webp|gif|vtt|srt|json)$/i.test(f.ext ?? "")) return { type: "skip", reason: `${f.ext} is not media` };
  let url: URL;
  try {
    url = new URL(f.url);
  } catch {
    return { type: "skip", reason: "not a URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { type: "skip", reason: `URL scheme ${url.protocol}` };
  const vcodec = codecFamily(f.vcodec, "video");
  const acodec = codecFamily(f.acodec, "audio");
  if (vcodec === null && acodec === null) return { type: "skip", reason: "no audio or video" };
  const kind: UpstreamStream["kind"] = vcodec === null ? "audio" : acodec === null ? "video" : "progressive";
  const ext = (f.ext ?? "").toLowerCase();
  let container = CONTAINERS[ext] ?? "unknown";
  if (container === "mp4" && kind === "audio") container = "m4a";
  const bitrateKbps = f.tbr ?? (f.vbr ?? 0) + (f.abr ?? 0);
  const chunkSize = Math.floor(f.downloader_options?.http_chunk_size ?? 0);
  const stream: UpstreamStream = {
    id: `ytdlp-${f.format_id || createHash("sha256").update(f.url).digest("hex").slice(0, 8)}`,
    kind,
    url: url.href,
    transport: { type: "direct", ...(chunkSize > 0 ? { maxRequestBytes: chunkSize } : {}) },
    container,
    ...(vcodec ? { vcodec } : {}),
    ...(acodec ? { acodec } : {}),
    ...(f.width ? { width: f.width } : {}),
    ...(f.height ? { height: f.height } : {}),
    ...(f.fps ? { fps: f.fps } : {}),
    ...(bitrateKbps > 0 ? { bitrate: Math.round(bitrateKbps * 1000) } : {}),
    ...(f.asr ? { audioSampleRate: f.asr } : {}),
    ...(f.language ? { language: f.language } : {}),
    ...(kind === "audio" && isOtherAudioTrack(f) ? { audioDefault: false } : {}),
    contentLength: f.filesize && f.filesize > 0 ? f.filesize : null,
  };
  // what the platform checks on every request of the file (a Referer, its cookie), never shown to a client
  const request = requestOf(f, url);
  if (request) stream.request = request;
  // yt-dlp leaves codecs out when the site does not say (Facebook's progressive files, generic
  // pages): such a stream is probed through our fetch before it is offered
  const codecsKnown = vcodec !== undefined && acodec !== undefined && container !== "unknown";
  return { type: "direct", stream, codecsKnown };
}

/**
 * A dubbed or descriptive audio track beside the original (docs/decisions/067): yt-dlp ranks those
 * below 0 (`language_preference`), and says so in its note ("German (dubbed-auto)", "descriptive").
 */
function isOtherAudioTrack(f: YtdlpFormat): boolean {
  if (typeof f.language_preference === "number") return f.language_preference < 0;
  return /\b(dubbed|descriptive|secondary)\b/i.test(f.format_note ?? "");
}

function platformOf(link: { kind: string; site?: SitePlatform }): Platform {
  return link.kind === "site" && link.site ? link.site : "generic";
}

function shortId(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 11);
}

function publishedOf(info: YtdlpInfo): string {
  const ts = info.timestamp ?? info.release_timestamp;
  if (ts) return formatPublishedDate(ts * 1000);
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(info.upload_date ?? "");
  return d ? formatPublishedDate(`${d[1]}-${d[2]}-${d[3]}T00:00:00Z`) : "";
}

export function thumbnailsOf(info: YtdlpInfo): Thumbnail[] {
  const list: Thumbnail[] = (info.thumbnails ?? [])
    .filter((t) => /^https?:\/\//i.test(t.url))
    .map((t) => ({ url: t.url, ...(t.width ? { width: t.width } : {}), ...(t.height ? { height: t.height } : {}), name: "other" }));
  if (info.thumbnail && /^https?:\/\//i.test(info.thumbnail) && !list.some((t) => t.url === info.thumbnail)) list.push({ url: info.thumbnail, name: "other" });
  return list;
}

/** VideoDetails from yt-dlp's metadata (spec §3 fields; "Unknown"/"" where the platform is silent). */
export function detailsOf(info: YtdlpInfo, link: { kind: string; url: string; site?: SitePlatform }, durationSeconds: number): VideoDetails {
  const host = new URL(link.url).hostname.replace(/^www\./, "");
  const thumbs = thumbnailsOf(info);
  const best = [...thumbs].sort((a, b) => (b.width ?? 0) * (b.height ?? 0) - (a.width ?? 0) * (a.height ?? 0))[0];
  const views = info.view_count ?? null;
  const followers = info.channel_follower_count ?? null;
  return {
    id: info.id && /^[\w-]{1,64}$/.test(info.id) ? info.id : shortId(link.url),
    title: (info.title || info.fulltitle || host).slice(0, 300),
    description: truncateDescription(info.description),
    thumbnail: info.thumbnail && /^https?:\/\//i.test(info.thumbnail) ? info.thumbnail : (best?.url ?? ""),
    channelTitle: info.uploader || info.channel || info.creator || host,
    channelId: info.uploader_id || info.channel_id || "",
    channelThumbnail: "",
    isMonetized: isMonetized(followers, views),
    subscriberCount: formatSubscribers(followers),
    publishedAt: publishedOf(info),
    duration: formatDuration(durationSeconds),
    viewCount: views !== null ? formatViews(views) : "",
    likeCount: info.like_count != null ? formatCount(info.like_count) : "Unknown",
    tags: (info.tags ?? []).slice(0, 30),
    downloadUrl: link.url,
    platform: platformOf(link),
    durationSeconds,
    embedUrl: null,
  };
}

/** The most a platform is offered at, as the spec describes its support (§4: Facebook MP4, 720p). */
const PLATFORM_MAX_HEIGHT: Partial<Record<SitePlatform, number>> = { facebook: 720 };

/**
 * Leaves out the video renditions above the platform's cap, so the format list matches its
 * card on /supported-sites. A video served only above the cap keeps what it has: offering it
 * beats offering nothing.
 */
export function capToPlatform<S extends { kind: string; height?: number }>(site: SitePlatform | undefined, streams: S[]): S[] {
  const max = site ? PLATFORM_MAX_HEIGHT[site] : undefined;
  if (!max) return streams;
  const within = streams.filter((s) => s.kind === "audio" || !s.height || s.height <= max);
  return within.some((s) => s.kind !== "audio") ? within : streams;
}

const subtitleFileSchema = z.object({ url: str, ext: str, name: str, protocol: str, http_headers: z.record(z.string(), z.unknown()).nullish().catch(null) });

/**
 * The caption file formats we read (engine/captions/parse-timedtext.ts), best first. Only YouTube
 * serves json3 and srv1-3 (a page embedding a YouTube video), and its speech recognition's WebVTT
 * repeats each line in the next cue, so those come first; every other platform's WebVTT next,
 * then SubRip and TTML. Others (a live chat's json, dfxp) are left out.
 */
const CAPTION_FORMATS = ["json3", "srv3", "srv2", "srv1", "vtt", "srt", "ttml"];
/** tracks a video lists at most, the uploader's first: enough for a menu, not a wall */
export const MAX_CAPTION_TRACKS = 50;

let languageNames: Intl.DisplayNames | undefined;
function languageName(code: string): string {
  try {
    languageNames ??= new Intl.DisplayNames(["en"], { type: "language" });
    return languageNames.of(code) ?? code;
  } catch {
    return code; // a tag Intl does not know still names its track
  }
}

/** What yt-dlp's requests for a caption file carry: the file's own headers or the document's, and its jar's cookies. */
interface CaptionRequestParts {
  headers: Record<string, unknown> | null | undefined;
  jar: UpstreamRequest["cookies"];
}

/**
 * The request for one caption file as yt-dlp makes it (YoutubeDL._write_subtitles: the file's
 * `http_headers`, else the document's; the cookies its jar holds for the URL). A `Cookie` inside
 * those headers (yt-dlp 2023.03) is left out: it was made for another URL, and the formats' cookies
 * it came from are in the jar with their scope.
 */
function captionRequestOf(fileHeaders: Record<string, unknown> | null | undefined, parts: CaptionRequestParts): UpstreamRequest | undefined {
  const headers = requestOf({ http_headers: fileHeaders ?? parts.headers }, null)?.headers;
  const cookies = parts.jar?.length ? parts.jar : undefined;
  return headers || cookies ? { ...(headers ? { headers } : {}), ...(cookies ? { cookies } : {}) } : undefined;
}

/**
 * One language's entry in yt-dlp's `subtitles`/`automatic_captions` as a track: the file in the
 * best format we read, reached over http(s) (yt-dlp also lists `protocol: "m3u8_native"`
 * playlists of segments and inline data, which are not one file), with what its requests carry.
 */
function trackOf(key: string, entries: unknown[], autoGenerated: boolean, parts: CaptionRequestParts): CaptionTrack | null {
  // "en-orig" is YouTube's speech recognition in the video's own language; "en-x-autogen" Vimeo's
  const languageCode = key.replace(/-orig$/i, "").replace(/-x-[a-z0-9-]+$/i, "");
  if (!isLanguageTag(languageCode)) return null; // "live_chat", and tags that could not come back as `language`
  const files = entries.flatMap((e) => {
    const r = subtitleFileSchema.safeParse(e);
    if (!r.success || !r.data.url || !/^https?:\/\//i.test(r.data.url) || !URL.canParse(r.data.url)) return [];
    if (r.data.protocol && !DIRECT_PROTOCOLS.has(r.data.protocol)) return [];
    // an extractor that names no ext leaves it to the file name (Dailymotion's ".../subtitle_en.vtt")
    const ext = r.data.ext ?? /\.(\w+)$/.exec(new URL(r.data.url).pathname)?.[1] ?? "";
    const rank = CAPTION_FORMATS.indexOf(ext.toLowerCase());
    return rank < 0 ? [] : [{ ...r.data, url: r.data.url, rank }];
  });
  const best = files.sort((a, b) => a.rank - b.rank)[0];
  if (!best) return null;
  const name = files.find((f) => f.name?.trim())?.name?.trim() ?? languageName(languageCode);
  const request = captionRequestOf(best.http_headers, parts);
  return { languageCode, name, url: best.url, format: CAPTION_FORMATS[best.rank]!, autoGenerated, translatable: false, ...(request ? { request } : {}) };
}

/**
 * The caption tracks of yt-dlp's document: one per language, the uploader's own (`subtitles`)
 * before speech recognition's (`automatic_captions`), which is left out of a language the
 * uploader covered. Where speech recognition marks its original language ("en-orig", YouTube),
 * its other languages are machine translations of that one track, and are not listed.
 */
export function captionsOf(info: YtdlpInfo): CaptionTrack[] {
  const tracks: CaptionTrack[] = [];
  const parts: CaptionRequestParts = { headers: info.http_headers, jar: cookieJarOf(formatsOf(info).map((f) => requestOf(f, urlOrNull(f.url ?? f.manifest_url ?? "")))) };
  const has = (code: string) => tracks.some((t) => t.languageCode.toLowerCase() === code.toLowerCase());
  const auto = Object.entries(info.automatic_captions ?? {});
  const original = auto.filter(([key]) => /-orig$/i.test(key));
  const groups: Array<[Array<[string, unknown]>, boolean]> = [
    [Object.entries(info.subtitles ?? {}), false],
    [original.length > 0 ? original : auto, true],
  ];
  for (const [entries, autoGenerated] of groups) {
    for (const [key, files] of entries) {
      if (tracks.length >= MAX_CAPTION_TRACKS) return tracks;
      const track = Array.isArray(files) ? trackOf(key, files, autoGenerated, parts) : null;
      if (track && !has(track.languageCode)) tracks.push(track);
    }
  }
  return tracks;
}

/** yt-dlp's chapters when they cover the video (engine/media/chapters/chapters.ts's rule); null otherwise. */
export function chaptersOfInfo(info: YtdlpInfo, durationSeconds: number): Chapter[] | null {
  const marks = (info.chapters ?? []).flatMap((c) => (c.start_time !== null && c.start_time !== undefined ? [{ title: c.title ?? "", start: c.start_time }] : []));
  return chaptersOf(marks, durationSeconds);
}
