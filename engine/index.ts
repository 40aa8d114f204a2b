/**
 * The engine's public face (DESIGN §6): link → source adapter → formats/plan → signed link →
 * stream. The host (server/) builds one engine from an EngineConfig and hands it to the API
 * router; nothing here reads process.env.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { parseLink, parsePlaylistLink, type ParsedLink, type PlatformId, type PlaylistLink } from "#common/links.ts";
import type { EngineConfig } from "./config.ts";
import { canDownload, fairUseApplies, limitFor, mayUse } from "./entitlements.ts";
import { EngineError, ERRORS, isEngineError, type EngineErrorCode } from "./errors.ts";
import { filenameFor, isFormatId, listFormats, planFormat } from "./formats.ts";
import { locateMediaTools, type MediaTools } from "./media/ffmpeg.ts";
import type { SpawnGate } from "./media/spawn-gate.ts";
import { planRequired, premiumRefusal } from "./refusals.ts";
import { createSourceRegistry, defaultSources } from "./sources/index.ts";
import { locateYtdlp, type YtdlpBinary } from "./sources/ytdlp/index.ts";
import type { ClientAttempt, PlaylistListing, SourceAdapter, SourceContext } from "./sources/types.ts";
import { YTDLP_RUNG as YTDLP_CLIENT } from "./sources/youtube/ytdlp-rung.ts";
import { createCachedResolver } from "./state/cached-resolve.ts";
import { memoryEngineState } from "./state/memory.ts";
import type { EngineStateFactory } from "./state/types.ts";
import { createDownloadPrefetch } from "./serve/download-prefetch.ts";
import type { DownloadProgress, FilesProgress } from "./state/progress-registry.ts";
import { measureHdThumbnail } from "./details/thumbnail-size.ts";
import { measureTranscript } from "./details/transcript-size.ts";
import { createOutbound, viaEgress, type Outbound, type ResolveHost } from "./outbound/outbound-fetch.ts";
import { createEgressPool, parseIpv6Cidr, parseOutboundProxies, withEgress, type EgressPool } from "./outbound/egress.ts";
import { defaultResolveHost } from "./outbound/guarded-lookup.ts";
import { resolveCacheKey } from "./state/cached-resolve.ts";
import type { EgressRef } from "./types.ts";
import { createSegmentPrefetch } from "./stream/segment-prefetch.ts";
import { egressOf, platformOfMedia, serveDownload, type DownloadFinished, type ServeContext } from "./serve/serve-download.ts";
import { isBulkToken, MAX_BULK_TOKEN_CHARS, signBulk, signDownload } from "./serve/signed-links.ts";
import { serveBulk } from "./serve/serve-bulk.ts";
import { archiveName, buildBulkArchive, bulkFilename } from "./serve/bulk-archive.ts";
import { renderFilename, templateProblem } from "./serve/filename-template.ts";
import { listAudioTracks, type AudioTrackAnswer } from "./media/audio/audio-tracks.ts";
import { isLanguageTag, subtitleListing, withSubtitleLanguage, type SubtitleTrackAnswer, type SubtitleTranslationAnswer } from "./captions/languages.ts";
import type { ManifestRow } from "./media/zip/manifest-csv.ts";
import { isClip, type MediaOptions } from "./media/options/media-options.ts";
import { checkSubtitleLanguage, checkSubtitles } from "./captions/plan-subtitles.ts";
import { createSponsorBlock, DEFAULT_SPONSORBLOCK_API_URL } from "./sources/youtube/sponsorblock.ts";
import { openMedia, sponsorSegmentsFor } from "./serve/open-media.ts";
import { openFrame } from "./serve/open-frame.ts";
import { planChapterSplit } from "./serve/chapter-archive.ts";
import { chapterArchiveName, checkSplitFormat } from "./media/chapters/split-chapters.ts";
import type { Caller, Chapter, FormatId, FormatOption, MediaPlan, ResolvedMedia, VideoDetails } from "./types.ts";
import type { RefusalPolicy } from "./stream/refusal-ladder.ts";

export type { DownloadProgress, DownloadState, FileProgress, FilesProgress, ProgressError } from "./state/progress-registry.ts";
export type { ManifestRow } from "./media/zip/manifest-csv.ts";
export type { SubtitleTrackAnswer, SubtitleTranslationAnswer } from "./captions/languages.ts";
export type { DownloadFinished } from "./serve/serve-download.ts";
export type { EngineConfig } from "./config.ts";
export type { EngineState, EngineStateFactory } from "./state/types.ts";
export { PAID_PLAN_LACKS_FORMAT } from "./refusals.ts";
export type { ClientAttempt } from "./sources/types.ts";
export { DEFAULT_MEDIA_OPTIONS, parseMediaOptions, type MediaOptions } from "./media/options/media-options.ts";
export type { AudioTrackAnswer } from "./media/audio/audio-tracks.ts";

export interface CreatedDownload {
  id: string;
  downloadUrl: string;
  filename: string;
  expiresAt: string;
  bytes: number | null;
}

/** One video of a playlist in the API's words (issue 30 §3): `duration` in seconds, null when unknown. */
export interface PlaylistEntryAnswer {
  url: string;
  title: string;
  duration: number | null;
  thumbnail: string | null;
}

/** A playlist as `POST /resolve` answers it (docs/api.md "Playlists"). */
export interface PlaylistAnswer {
  title: string;
  /** the playlist's canonical link: `POST /downloads` with it gives the ZIP */
  url: string;
  /** how many videos the platform says it holds, when it says (may exceed `entries`) */
  total: number | null;
  entries: PlaylistEntryAnswer[];
}

/**
 * `POST /resolve`'s answer: a video link's `{ video, formats }` unchanged; a playlist link's
 * `{ playlist }`; a YouTube watch link inside a playlist (`watch?v=…&list=…`) both.
 */
/** A video link's answer: its details, its formats, and its caption tracks by language (issue 31 §3). */
export interface VideoAnswer {
  video: VideoDetails;
  formats: FormatOption[];
  subtitles: SubtitleTrackAnswer[];
  /** languages the translatable tracks can be machine-translated into (empty when none is) */
  subtitleTranslations: SubtitleTranslationAnswer[];
  /** the video's chapters, seconds (issue 33 §2; empty when it has none) */
  chapters: Chapter[];
  /** its audio tracks by language, the original marked `default` (issue 33 §5; empty when the source names none) */
  audioTracks: AudioTrackAnswer[];
}

export type ResolveAnswer = (VideoAnswer & { playlist?: PlaylistAnswer }) | { playlist: PlaylistAnswer };

/** A file opened for a caller other than an HTTP response (a job, a bulk archive): see Engine.openDownload. */
export interface OpenedDownload {
  /** the file's bytes; destroying it stops every upstream and ffmpeg */
  stream: Readable;
  /** the file name a download of it gets, e.g. "Title (720p).mp4" */
  filename: string;
  /** the file's size when known in advance */
  bytes: number | null;
  contentType: string;
  title: string;
  /** the platform client whose answer it streams (ResolvedMedia.client) and the egress of that answer */
  client?: string;
  egress?: string;
}

/** What a ZIP of several links is asked for with, as a link or for a job. */
export interface BulkRequest {
  format: string;
  caller: Caller;
  ip: string;
  /** the archive's name (a playlist's title) */
  name?: string;
  /** a white-labelled call: a ZIP without a name is not named after the site */
  unbranded?: boolean;
  /** a download profile's subtitle language and file-name template, for every file */
  language?: string;
  filenameTemplate?: string;
  /** the media options of every file (tags…; absent: the defaults) */
  options?: MediaOptions;
}

/** A bulk ZIP opened for a job: see Engine.openBulkDownload. */
export interface OpenedBulkDownload extends OpenedDownload {
  /** the links in the archive's order (a playlist's, once listed) */
  urls: string[];
  done: Promise<ManifestRow[]>;
}

export interface Engine {
  /** `signal`: the client left (its request closed), `ip`: who asks (issue 27, finding 5) */
  resolve(url: string, caller: Caller, opts?: { signal?: AbortSignal; ip?: string }): Promise<VideoAnswer>;
  /**
   * `POST /resolve` (issue 30 §3): `resolve` for a video link, a playlist's listing for a playlist
   * link, both for a watch link inside a playlist (its listing failing leaves the video answer).
   */
  resolveLink(url: string, caller: Caller, opts?: { signal?: AbortSignal; ip?: string }): Promise<ResolveAnswer>;
  /**
   * A playlist link's title and entries in order (YouTube `list=`, other platforms through
   * yt-dlp). `max`: the entries wanted at most (default PLAYLIST_LISTING_MAX); a longer playlist
   * says so in `total`. EngineError("link.invalid") for a link that names no playlist.
   */
  listPlaylist(url: string, opts?: { signal?: AbortSignal; ip?: string; max?: number }): Promise<PlaylistAnswer>;
  /**
   * A signed link to one file; for a playlist link (`/playlist?list=…`, a platform's playlist
   * page) the playlist's ZIP, exactly as `createBulkDownload` of its entries in order.
   */
  createDownload(input: { url: string; format: string; caller: Caller; ip: string; signal?: AbortSignal; language?: string; filenameTemplate?: string; options?: MediaOptions }): Promise<CreatedDownload>;
  /**
   * A signed link to one ZIP of several links in one format (issue 30 §3), for callers whose plan
   * has bulk downloads: 403 `plan.required` otherwise, 400 `bulk.too_many_links` over the plan's
   * `linksPerBulkJob`. Links are checked for form here and fetched when the link is opened.
   */
  createBulkDownload(input: BulkRequest & { urls: string[] }): Promise<CreatedDownload>;
  /**
   * One ZIP of several links (`urls`) or of a playlist link's entries (`url`) as a Readable, with
   * the same rights, caps and manifest as a bulk link (a bulk job uses it). It holds one of the
   * server's streaming slots until the stream closes; `onFiles` hears each file start and end;
   * `done` gives the manifest's rows once the archive's end is written.
   */
  openBulkDownload(input: BulkRequest & { urls?: string[]; url?: string; signal?: AbortSignal; onFiles?: (files: FilesProgress) => void }): Promise<OpenedBulkDownload>;
  /**
   * The same resolve, plan and stream a download link runs, as a Readable (the scheduled-download
   * job uses it). Entitlement as for a link (canDownload); it holds one of the server's streaming
   * slots until the stream closes; fair use is not counted. `signal` aborting destroys the stream.
   * `clients`: ask only these platform clients (`YOUTUBE_CLIENTS` names), never from the cache and
   * without the next-client rung of the refusal ladder: the canary's check of one client.
   * `egress`: resolve and fetch through this egress alone (one of `egresses`, resting or not), never
   * from the cache and without the other-egress rung: the canary's check of one egress. A bot wall
   * there (of the whole ladder, not of `clients` alone) rests it, as a visitor's resolve would. An
   * id the pool lacks is `request.invalid`.
   * The stream's end (whole, or failed on our side) reaches onDownloadFinished with `history: false`.
   */
  openDownload(input: {
    url: string;
    format: string;
    caller: Caller;
    ip: string;
    signal?: AbortSignal;
    language?: string;
    filenameTemplate?: string;
    clients?: readonly string[];
    egress?: string;
    /** the media options (absent: the defaults) */
    options?: MediaOptions;
  }): Promise<OpenedDownload>;
  /**
   * Streams a signed link's file; writes a JSON error itself when the failure comes before
   * headers. `ip` is the client address for fair use (the host's view, after `trust proxy`);
   * without it the request's `ip` (Express) or socket address is used.
   */
  handleDownload(token: string, req: IncomingMessage, res: ServerResponse, opts?: { ip?: string }): Promise<void>;
  /** rejects with EngineError("download.not_found") for an unknown id; resolves to the unsubscribe */
  subscribeProgress(id: string, fn: (p: DownloadProgress) => void): Promise<() => void>;
  /**
   * A JPEG of the frame at `t` (seconds or h:mm:ss) of a video link, at most 320 px wide: the
   * picker's preview of a clip's first frame (docs/decisions/071). Resolved through the cache; only
   * what covers `t` of its lowest rendition is fetched. `clip.out_of_range` at or past the end.
   */
  frame(url: string, t: string | number, opts?: { signal?: AbortSignal; ip?: string }): Promise<Buffer>;
  mediaTools: MediaTools;
  /** the yt-dlp resolving other platforms' links, or null when this server has none */
  ytdlp: YtdlpBinary | null;
  /** the ways out, in the pool's order (`direct` alone without OUTBOUND_PROXIES and OUTBOUND_IPV6_CIDR) */
  egresses: readonly string[];
  close(): Promise<void>;
}

/** A fresh resolve of a platform's link ended (a cached answer is not one); see EngineDeps.onResolved. */
export interface ResolveOutcome {
  platform: PlatformId;
  ok: boolean;
  /** the failure's code */
  code: EngineErrorCode | null;
  ms: number;
  /** the asker's address (Engine.resolve's `ip`), when it gave one */
  client: string | undefined;
  /** each platform client asked and how it did (YouTube's ladder; one `ytdlp` attempt for yt-dlp's platforms) */
  clients: ClientAttempt[];
  /** the egress the answer was fetched through (`direct` unless the answer names one) */
  egress: string;
}

/** Seams for tests and the benchmark; production passes none. */
export interface EngineDeps {
  /**
   * Called after each fresh resolve of a YouTube or yt-dlp platform link, unless the asker left
   * first: the host keeps each platform's health with it. What it throws is logged, never the resolve's.
   */
  onResolved?: (outcome: ResolveOutcome) => void;
  /**
   * Called once per stream that ended (done, failed, or left by the client) or failed before its
   * first byte on our side. The host records history with it; errors are logged, never thrown.
   */
  onDownloadFinished?: (event: DownloadFinished) => void | Promise<void>;
  sources?: SourceAdapter[];
  media?: MediaTools;
  /** DNS for the outbound guard */
  resolveHost?: ResolveHost;
  now?: () => number;
  /** ffmpeg SIGTERM → SIGKILL grace */
  killGraceMs?: number;
  /** one ffmpeg spawn per event-loop turn (default: the process-wide gate) */
  spawnGate?: SpawnGate;
  /**
   * Admission counts, resolve cache, progress and link usage (default: in this process). The
   * host passes shared implementations (server/state/, Redis) when several instances run.
   */
  state?: EngineStateFactory;
  /** how downloads answer a refusal (403) mid-way, and the per-host budget (defaults: refusal-ladder.ts) */
  refusals?: RefusalPolicy;
  /** the ways out (default: from config.egress; tests pass one to rest an egress or set its clock) */
  egress?: EgressPool;
  /**
   * the order to ask YouTube's configured clients in, read at each resolve (the host moves a client
   * failing its canaries down): given the configured names, the same names reordered
   */
  clientOrder?: (configured: readonly string[]) => readonly string[];
}
const DEFAULT_MAX_CONCURRENT_PER_IP = 10;
/** the formats a subtitle language applies to */
const TEXT_FORMATS: readonly FormatId[] = ["transcript", "srt", "vtt"];

/** a download's `language`: a text format's, well formed, and a right of the caller's plan */
function checkLanguage(language: string, format: FormatId, caller: Caller): void {
  if (!TEXT_FORMATS.includes(format)) throw new EngineError("request.invalid", { message: "A language can only be chosen for subtitles and transcripts.", detail: `language with ${format}` });
  if (!isLanguageTag(language)) throw new EngineError("request.invalid", { message: "That is not a language code.", detail: "language tag" });
  if (!mayUse(caller, "subtitleLanguages")) throw planRequired(caller, "subtitleLanguages");
}
/** a playlist link among other links: it is only downloaded as a whole on its own */
const PLAYLIST_ALONE = "A playlist link goes alone: paste it by itself to download its videos.";
/** a split by chapter is of one video (its ZIP holds that video's chapters): never a ZIP of several links, each split */
function checkNotSplit(options: MediaOptions | undefined): void {
  if (options?.chapters === "split") {
    throw new EngineError("request.invalid", { message: "Only a single video can be split by chapter: download the videos one at a time.", detail: "chapters split with several links" });
  }
}
/** entries a playlist's listing shows at most (the picker's list; a ZIP takes the plan's cap) */
export const PLAYLIST_LISTING_MAX = 200;

function playlistAnswer(listing: PlaylistListing, max: number): PlaylistAnswer {
  const entries = listing.entries.slice(0, max).map((e) => ({ url: e.url, title: e.title, duration: e.durationSeconds, thumbnail: e.thumbnail }));
  const total = listing.total ?? (listing.entries.length > max ? null : entries.length);
  return { title: listing.title, url: listing.url, total: total === null ? null : Math.max(total, listing.entries.length), entries };
}
const DEFAULT_MAX_STREAMS_PER_LINK = 2;

function failureToError(result: { code: EngineErrorCode; detail?: string; message?: string }): EngineError {
  const message = result.message && result.message !== ERRORS[result.code].message ? result.message : undefined;
  return new EngineError(result.code, { detail: result.detail, message });
}

export async function createEngine(config: EngineConfig, deps: EngineDeps = {}): Promise<Engine> {
  const logger = config.logger;
  const now = deps.now ?? Date.now;
  const mediaTools = deps.media ?? (await locateMediaTools({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath }));
  const egresses =
    deps.egress ??
    createEgressPool({ proxies: parseOutboundProxies(config.egress?.proxies), ipv6: parseIpv6Cidr(config.egress?.ipv6Cidr), resolve: deps.resolveHost ?? defaultResolveHost, logger, now });
  const outbound: Outbound = createOutbound({
    egress: egresses,
    hostMap: config.hostMap,
    allowPrivate: config.allowPrivateSources,
    timeoutMs: config.limits.outboundTimeoutMs,
    maxConnectionsPerHost: config.limits.maxConnectionsPerHost,
    logger,
    resolve: deps.resolveHost,
  });
  // adapters passed in by a test replace the production set, yt-dlp included
  const ytdlp = deps.sources ? null : await locateYtdlp(config.ytdlpPath);
  const registry = createSourceRegistry(deps.sources ?? defaultSources({ ytdlp, ytdlpTimeoutMs: config.ytdlpTimeoutMs }));
  const ctx: SourceContext = { fetch: outbound.fetch, config, logger, media: mediaTools, ...(deps.clientOrder ? { clientOrder: deps.clientOrder } : {}) };
  const segmentPrefetch = createSegmentPrefetch({ open: outbound.open, logger });
  // SponsorBlock's API: the guarded door, its configured base trusted like the Data API's (issue 33 §4)
  const sponsorBlock = createSponsorBlock({ baseUrl: config.youtube.sponsorBlockApiUrl ?? DEFAULT_SPONSORBLOCK_API_URL, fetch: outbound.fetch, logger });
  const downloadPrefetch = createDownloadPrefetch(segmentPrefetch, config.limits.segmentConcurrency);
  const engineState = (deps.state ?? memoryEngineState)({
    limits: {
      maxConcurrent: config.limits.maxConcurrentDownloads,
      perIpPerHour: config.limits.downloadsPerIpPerHour,
      perIpConcurrent: config.limits.maxConcurrentDownloadsPerIp ?? DEFAULT_MAX_CONCURRENT_PER_IP,
      perLinkConcurrent: config.limits.maxConcurrentStreamsPerLink ?? DEFAULT_MAX_STREAMS_PER_LINK,
    },
    now,
  });
  const { progress, admission } = engineState;
  const resolver = createCachedResolver({ store: engineState.resolveCache, ttlSeconds: config.limits.resolveCacheSeconds, now, logger });
  const active = new Set<AbortController>();
  /** set by close(): downloads still on their way to the first byte are answered "busy" */
  let closing = false;
  const publicUrl = config.publicUrl.replace(/\/+$/, "");

  function reportFinished(event: DownloadFinished): void {
    const hook = deps.onDownloadFinished;
    if (!hook) return;
    void Promise.resolve()
      .then(() => hook(event))
      .catch((err: unknown) => logger.warn({ download: event.id, err }, "onDownloadFinished failed"));
  }

  function parse(url: string): ParsedLink {
    const parsed = parseLink(url);
    if (!parsed.ok) throw new EngineError(parsed.code, { message: parsed.message });
    if (parsed.kind === "youtube") return { kind: "youtube", id: parsed.id, url: parsed.url };
    return parsed.kind === "site" ? { kind: "site", site: parsed.site, url: parsed.url } : { kind: "generic", url: parsed.url };
  }

  /** who waits for a resolve: aborted when they leave, and their address */
  interface Asker {
    signal?: AbortSignal;
    ip?: string;
  }

  /** a download being created: its id and format */
  interface ForDownload {
    id: string;
    format: FormatId;
  }

  async function resolveFresh(
    link: ParsedLink,
    signal: AbortSignal,
    client: string | undefined,
    forDownload?: ForDownload,
    avoidClients?: readonly string[],
    onlyClients?: readonly string[],
    egress: EgressRef = egresses.choose(link.url),
  ): Promise<ResolvedMedia> {
    const adapter = registry.pick(link);
    const attempts: ClientAttempt[] = [];
    // every request of this resolve (yt-dlp's too) leaves by its egress
    const door = viaEgress(outbound, egress);
    const resolveCtx: SourceContext = { ...ctx, fetch: door.fetch, egress: { ref: egress, dialer: egresses.dialer(egress) }, signal, client, reportClient: (a) => attempts.push(a), ...(avoidClients ? { avoidClients } : {}), ...(onlyClients ? { onlyClients } : {}) };
    // a resolve for a download being created: segments it will likely read are fetched while
    // the adapter still probes (decision 025)
    if (forDownload) resolveCtx.streamsKnown = (streams) => downloadPrefetch.forStreams(link.url, forDownload.format, forDownload.id, withEgress(streams, egress));
    const platform: PlatformId | null = link.kind === "youtube" ? "youtube" : link.kind === "site" ? link.site : null;
    const started = now();
    const report = (code: EngineErrorCode | null, media?: ResolvedMedia) => {
      if (!platform || !deps.onResolved || signal.aborted) return;
      // yt-dlp's platforms have one reader: the resolve is its attempt
      const clients = attempts.length > 0 || platform === "youtube" ? attempts : [{ client: YTDLP_CLIENT, ok: code === null, code }];
      try {
        deps.onResolved({ platform, ok: code === null, code, ms: now() - started, client, clients, egress: media ? egressOf(media) : egress.id });
      } catch (err) {
        logger.warn({ err }, "onResolved failed");
      }
    };
    let result;
    try {
      result = await adapter.resolve(link, resolveCtx);
      if (result.ok) result = { ...result, media: { ...result.media, egress, streams: withEgress(result.media.streams, egress) } };
    } catch (err) {
      report(isEngineError(err) ? err.code : "internal");
      throw err;
    }
    if (result.ok && link.kind === "site" && result.media.client === undefined) result.media.client = YTDLP_CLIENT;
    report(result.ok ? null : (result as { code: EngineErrorCode }).code, result.ok ? result.media : undefined);
    if (!result.ok) throw failureToError(result as { code: EngineErrorCode; detail?: string; message?: string });
    await Promise.all([measureHdThumbnail(result.media, door.fetch, { signal, logger }), measureTranscript(result.media, door.fetch, { signal, logger })]);
    return result.media;
  }

  /** Resolve results are reused briefly (shared by concurrent callers; see state/cached-resolve.ts). */
  async function resolveCached(link: ParsedLink, fresh = false, forDownload?: ForDownload, asker: Asker = {}): Promise<ResolvedMedia> {
    // each egress has its own answers (their URLs may be bound to its address: decision 057)
    const on = (egress: EgressRef) =>
      resolver.resolve(resolveCacheKey(link.url, egresses.configured ? egress.id : null), (signal) => resolveFresh(link, signal, asker.ip, forDownload, undefined, undefined, egress), fresh, asker.signal);
    const egress = egresses.choose(link.url);
    try {
      return await on(egress);
    } catch (err) {
      // a bot wall speaks against the address: that egress rests, and the link is asked once more on the next one
      if (!isEngineError(err) || err.code !== "video.bot_check" || asker.signal?.aborted) throw err;
      egresses.rest(egress.id, "bot wall");
      const next = egresses.other(egress.id);
      if (!next) throw err;
      logger.info({ egress: egress.id, next: next.id }, "bot wall on this egress: resolving on the next one");
      return on(next);
    }
  }

  /**
   * A check's fresh resolve (openDownload's `clients` and `egress`): never cached, on the pinned
   * egress when there is one (each resolve a fresh `ipv6` address), which a bot wall of the whole
   * ladder rests as on a visitor's resolve; without one, on the link's egress.
   */
  async function resolvePinned(link: ParsedLink, signal: AbortSignal, ip: string, onlyClients?: readonly string[], egressId?: string, avoidClients?: readonly string[]): Promise<ResolvedMedia> {
    const egress = egressId === undefined ? egresses.choose(link.url) : egresses.pinned(egressId)!;
    try {
      return await resolveFresh(link, signal, ip, undefined, avoidClients, onlyClients, egress);
    } catch (err) {
      // one client's bot wall says nothing of the egress; the whole ladder's does
      if (egressId !== undefined && !onlyClients && isEngineError(err) && err.code === "video.bot_check") egresses.rest(egress.id, "bot wall (a check of this egress)");
      throw err;
    }
  }

  const serving: ServeContext = {
    config,
    logger,
    now,
    state: engineState,
    outbound,
    media: mediaTools,
    prefetch: segmentPrefetch,
    parse,
    resolve: (link, fresh) => resolveCached(link, fresh),
    resolveAvoiding: (link, clients, signal) => resolveFresh(link, signal, undefined, undefined, clients),
    resolveOnOtherEgress: (link, refused, signal) => {
      egresses.rest(refused, "a download refused after a fresh resolve");
      const next = egresses.other(refused);
      return next ? resolveFresh(link, signal, undefined, undefined, undefined, undefined, next) : null;
    },
    refusals: deps.refusals,
    isClosing: () => closing,
    active,
    reportFinished,
    killGraceMs: deps.killGraceMs,
    spawnGate: deps.spawnGate,
    sponsorBlock,
  };

  /** a playlist's entries, up to `max` (and one more when there are more, for the caller's cap) */
  async function listPlaylistOf(list: PlaylistLink, max: number, asker: Asker = {}): Promise<PlaylistListing> {
    const adapter = registry.pickPlaylist(list);
    const controller = new AbortController();
    const onLeave = () => controller.abort();
    asker.signal?.addEventListener("abort", onLeave, { once: true });
    active.add(controller);
    try {
      // a listing leaves by its link's egress too
      const egress = egresses.choose(list.url);
      const result = await adapter.listPlaylist(list, {
        ...ctx,
        fetch: viaEgress(outbound, egress).fetch,
        egress: { ref: egress, dialer: egresses.dialer(egress) },
        signal: controller.signal,
        client: asker.ip,
        playlistEnough: max + 1,
      });
      if (!result.ok) throw failureToError(result as { code: EngineErrorCode; detail?: string; message?: string });
      return result.media;
    } finally {
      asker.signal?.removeEventListener("abort", onLeave);
      active.delete(controller);
    }
  }

  /** the refusals every bulk ZIP meets first: a plan without bulk downloads learns it before any page is fetched */
  function checkBulkRights(format: string, caller: Caller): FormatId {
    if (!isFormatId(format)) throw new EngineError("format.unknown", { detail: format });
    if (!mayUse(caller, "bulkDownloads")) throw planRequired(caller, "bulkDownloads");
    if (!canDownload(caller, format)) throw premiumRefusal(caller);
    return format;
  }

  /** a bulk download's links in canonical form, within the plan's cap; a malformed one is named by its line */
  function bulkLinks(urls: readonly string[], format: string, caller: Caller): { urls: string[]; format: FormatId } {
    const checked = checkBulkRights(format, caller);
    const most = limitFor(caller, "linksPerBulkJob") ?? 0;
    if (urls.length === 0) throw new EngineError("request.invalid", { message: "Add at least one link to download." });
    if (urls.length > most) {
      throw new EngineError("bulk.too_many_links", { message: `A bulk download takes at most ${most} links; this one has ${urls.length}.`, detail: String(urls.length) });
    }
    const normalised = urls.map((url, i) => {
      if (wholePlaylist(url)) throw new EngineError("link.invalid", { message: `Link ${i + 1}: ${PLAYLIST_ALONE}`, detail: `position ${i + 1}` });
      try {
        return parse(url).url;
      } catch (err) {
        if (err instanceof EngineError) throw new EngineError(err.code, { message: `Link ${i + 1}: ${err.message}`, detail: `position ${i + 1}` });
        throw err;
      }
    });
    return { urls: normalised, format: checked };
  }

  /** a playlist link's entries, in order, as a bulk download's links (Ultimate), and its title */
  async function playlistLinks(list: PlaylistLink, input: { format: string; caller: Caller; ip: string; signal?: AbortSignal }): Promise<{ urls: string[]; title: string }> {
    const { caller } = input;
    checkBulkRights(input.format, caller);
    const most = limitFor(caller, "linksPerBulkJob") ?? 0;
    const listing = await listPlaylistOf(list, most, { signal: input.signal, ip: input.ip });
    if (listing.entries.length === 0) throw new EngineError("video.not_found", { message: "This playlist has no videos to download.", detail: list.url });
    const count = Math.max(listing.total ?? 0, listing.entries.length);
    if (listing.entries.length > most) {
      throw new EngineError("bulk.too_many_links", {
        message: `This playlist has ${listing.total === null ? `more than ${most}` : count} videos; a ZIP takes at most ${most}. Choose up to ${most} of them and download those as a list of links.`,
        detail: `playlist of ${listing.total ?? `>${most}`}`,
      });
    }
    return { urls: listing.entries.map((e) => e.url), title: listing.title };
  }

  /** a link that names a whole playlist (a watch link inside one stays a download of its video) */
  function wholePlaylist(url: string): PlaylistLink | null {
    const list = parsePlaylistLink(url);
    return list && !(list.kind === "youtube" && list.videoId) ? list : null;
  }

  const engine: Engine = {
    mediaTools,
    ytdlp,
    egresses: egresses.ids,

    async resolveLink(url, caller, opts = {}) {
      const list = parsePlaylistLink(url);
      if (!list) return engine.resolve(url, caller, opts);
      if (list.kind !== "youtube" || !list.videoId) return { playlist: playlistAnswer(await listPlaylistOf(list, PLAYLIST_LISTING_MAX, opts), PLAYLIST_LISTING_MAX) };
      // a video inside a playlist: the video as before, its playlist beside it when it can be listed
      const [video, listing] = await Promise.all([
        engine.resolve(url, caller, opts),
        listPlaylistOf(list, PLAYLIST_LISTING_MAX, opts).catch((err: unknown) => {
          logger.info({ code: isEngineError(err) ? err.code : undefined, detail: isEngineError(err) ? err.detail : String(err) }, "playlist of a watch link not listed");
          return null;
        }),
      ]);
      return listing ? { ...video, playlist: playlistAnswer(listing, PLAYLIST_LISTING_MAX) } : video;
    },

    async listPlaylist(url, opts = {}) {
      const list = parsePlaylistLink(url);
      if (!list) throw new EngineError("link.invalid", { message: "This link is not a playlist link." });
      const max = Math.max(1, Math.min(opts.max ?? PLAYLIST_LISTING_MAX, PLAYLIST_LISTING_MAX));
      return playlistAnswer(await listPlaylistOf(list, max, opts), max);
    },

    async resolve(url, caller, opts = {}) {
      const media = await resolveCached(parse(url), false, undefined, opts);
      return { video: media.details, formats: listFormats(media, caller), ...subtitleListing(media), chapters: media.chapters ?? [], audioTracks: listAudioTracks(media) };
    },

    async createDownload({ url, format, caller, ip, signal, language, filenameTemplate, options }) {
      const list = wholePlaylist(url);
      if (list) {
        checkNotSplit(options);
        const playlist = await playlistLinks(list, { format, caller, ip, signal });
        return engine.createBulkDownload({ urls: playlist.urls, format, caller, ip, name: playlist.title, options });
      }
      const link = parse(url);
      if (!isFormatId(format)) throw new EngineError("format.unknown", { detail: format });
      if (!canDownload(caller, format)) throw premiumRefusal(caller);
      // one file per chapter, in a ZIP (docs/decisions/070): a format without a timeline is refused before any resolve
      const split = options?.chapters === "split";
      if (split) checkSplitFormat(format);
      if (language !== undefined) checkLanguage(language, format, caller);
      checkSubtitles(caller, format, options, mediaTools.burnSubtitles);
      if (filenameTemplate !== undefined) {
        const problem = templateProblem(filenameTemplate);
        if (problem) throw new EngineError("request.invalid", { message: problem, detail: "file-name template" });
      }
      // Fair use is counted when the link streams; an IP already at its limit learns it here,
      // before the page navigates to a link that would be refused. Paid plans have no fair use.
      if (fairUseApplies(caller)) await admission.check(ip);
      const id = `dl_${randomUUID().replace(/-/g, "")}`;
      let media: ResolvedMedia;
      // none for a split: its ZIP's size is known only once its last chapter is made
      let plan: MediaPlan | null;
      try {
        // a clip's segments are known only once it is planned: nothing is guessed at while resolving
        const resolved = await resolveCached(link, false, isClip(options) || split ? undefined : { id, format }, { signal, ip });
        media = language !== undefined ? withSubtitleLanguage(resolved, language) : resolved;
        checkSubtitleLanguage(caller, media, options);
        // a cut's size is the cut file's: SponsorBlock's answer is asked now, and kept for when the link opens
        const segments = await sponsorSegmentsFor(sponsorBlock, media, options, signal);
        // a split: every chapter's clip is planned now, so what it cannot give is refused before a link is made
        if (split) planChapterSplit(media, format, options!, segments);
        plan = split ? null : planFormat(media, format, options, segments);
      } catch (err) {
        segmentPrefetch.release(id);
        throw err;
      }
      // the client opens the link next: its first segments are on their way meanwhile
      if (plan) downloadPrefetch.forPlan(plan, id);
      const exp = Math.floor(now() / 1000) + config.limits.linkTtlSeconds;
      const token = signDownload(config.signingSecret, {
        id,
        url: link.url,
        format,
        caller: caller.kind,
        plan: caller.plan,
        userId: caller.userId,
        exp,
        ...(language !== undefined ? { language } : {}),
        ...(filenameTemplate !== undefined ? { template: filenameTemplate } : {}),
        ...(options ? { options } : {}),
      });
      const defaultName = filenameFor(media, format, language, options);
      const filename = filenameTemplate !== undefined ? renderFilename(filenameTemplate, media, format, defaultName, language, options) : defaultName;
      progress.create(id, plan?.bytes ?? null);
      return {
        id,
        downloadUrl: `${publicUrl}/api/v1/dl/${token}`,
        filename: split ? chapterArchiveName(filename) : filename,
        expiresAt: new Date(exp * 1000).toISOString(),
        bytes: plan?.bytes ?? null,
      };
    },

    async createBulkDownload(input) {
      const { urls, format: wanted, caller, ip, name, unbranded, language, filenameTemplate, options } = input;
      checkNotSplit(options);
      // one playlist link pasted as the list: the playlist's videos
      const list = urls.length === 1 ? wholePlaylist(urls[0]!) : null;
      if (list) {
        const playlist = await playlistLinks(list, { format: wanted, caller, ip });
        return engine.createBulkDownload({ ...input, urls: playlist.urls, name: name ?? playlist.title });
      }
      const { urls: normalised, format } = bulkLinks(urls, wanted, caller);
      if (language !== undefined) checkLanguage(language, format, caller);
      checkSubtitles(caller, format, options, mediaTools.burnSubtitles);
      const id = `dl_${randomUUID().replace(/-/g, "")}`;
      const issued = now();
      const exp = Math.floor(issued / 1000) + config.limits.linkTtlSeconds;
      // the link carries an unbranded default as its name, so the file it serves is named the same
      const archive = name ? archiveName(name) : unbranded ? bulkFilename(new Date(issued), null, true).replace(/\.zip$/, "") : "";
      const token = signBulk(config.signingSecret, { id, urls: normalised, format, caller: caller.kind, plan: caller.plan, userId: caller.userId, exp, ...(archive ? { name: archive } : {}), ...(language !== undefined ? { language } : {}), ...(filenameTemplate !== undefined ? { template: filenameTemplate } : {}), ...(options ? { options } : {}) });
      if (token.length > MAX_BULK_TOKEN_CHARS) {
        throw new EngineError("bulk.too_many_links", { message: "These links are too long to download together. Send fewer links at once.", detail: `token ${token.length} chars` });
      }
      progress.create(id, null);
      return {
        id,
        downloadUrl: `${publicUrl}/api/v1/dl/${token}`,
        filename: bulkFilename(new Date(exp * 1000 - config.limits.linkTtlSeconds * 1000), archive),
        expiresAt: new Date(exp * 1000).toISOString(),
        bytes: null,
      };
    },

    async openDownload({ url, format, caller, ip, signal, language, filenameTemplate, clients, egress, options }) {
      if (closing) throw new EngineError("download.busy", { retryAfter: 5, detail: "the engine is closing" });
      const link = parse(url);
      if (egress !== undefined && !egresses.ids.includes(egress)) throw new EngineError("request.invalid", { detail: `no egress ${egress}` });
      if (!isFormatId(format)) throw new EngineError("format.unknown", { detail: format });
      if (!canDownload(caller, format)) throw premiumRefusal(caller);
      if (language !== undefined) checkLanguage(language, format, caller);
      checkSubtitles(caller, format, options, mediaTools.burnSubtitles);
      const id = `dl_${randomUUID().replace(/-/g, "")}`;
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      if (signal?.aborted) throw new EngineError("download.failed", { detail: "aborted before it opened" });
      // a full server answers download.busy (Retry-After) rather than queueing the caller
      const release = await admission.acquire();
      signal?.addEventListener("abort", onAbort, { once: true });
      active.add(controller);
      // the media once known: what the stream's end tells the host about the platform
      let finished = null as DownloadFinished | null;
      const onResolved = (media: ResolvedMedia) => {
        finished = { id, caller, format, title: media.details.title, bytes: null, complete: false, ip, history: false, ...platformOfMedia(link, media) };
      };
      const report = (outcome: { complete: boolean; error?: EngineErrorCode }) => {
        if (finished) reportFinished({ ...finished, ...outcome });
        finished = null;
      };
      const mediaCtx =
        clients || egress !== undefined
          ? {
              ...serving,
              resolve: (l: ParsedLink) => resolvePinned(l, controller.signal, ip, clients, egress),
              // the check of one client stays with that client, the check of one egress with that egress
              resolveAvoiding: clients ? undefined : (l: ParsedLink, avoid: readonly string[], s: AbortSignal) => resolvePinned(l, s, ip, undefined, egress, avoid),
              resolveOnOtherEgress: undefined,
            }
          : { ...serving, resolve: (l: ParsedLink, fresh?: boolean) => resolveCached(l, fresh, undefined, { ip }) };
      let opened;
      try {
        opened = await openMedia(mediaCtx, link, format, { id, caller, signal: controller.signal, language, filenameTemplate, options, onResolved });
      } catch (err) {
        if (!controller.signal.aborted) report({ complete: false, error: isEngineError(err) ? err.code : "download.failed" });
        release();
        active.delete(controller);
        signal?.removeEventListener("abort", onAbort);
        segmentPrefetch.release(id);
        throw err;
      }
      const { out, media, filename } = opened;
      // read to its end: whole; failed on our side: its code; stopped by its reader or `signal`: neither (not reported)
      if (finished) finished = { ...finished, bytes: out.length };
      out.body.once("end", () => report({ complete: true }));
      out.body.once("error", (err) => {
        if (!controller.signal.aborted) report({ complete: false, error: isEngineError(err) ? err.code : "download.failed" });
      });
      let closed = false;
      const cleanup = () => {
        if (closed) return;
        closed = true;
        out.teardown();
        release();
        active.delete(controller);
        signal?.removeEventListener("abort", onAbort);
      };
      out.body.once("close", cleanup);
      controller.signal.addEventListener("abort", () => {
        if (!out.body.destroyed) out.body.destroy(new EngineError("download.failed", { detail: "the download was stopped" }));
        cleanup();
      });
      return {
        stream: out.body,
        filename,
        bytes: out.length,
        contentType: out.headers["content-type"] ?? "application/octet-stream",
        title: media.details.title,
        ...(media.client ? { client: media.client } : {}),
        egress: egressOf(media),
      };
    },

    async openBulkDownload(input) {
      if (closing) throw new EngineError("download.busy", { retryAfter: 5, detail: "the engine is closing" });
      const { caller, ip, signal } = input;
      checkNotSplit(input.options);
      const given = input.url ?? (input.urls?.length === 1 ? input.urls[0] : undefined);
      const list = given !== undefined ? wholePlaylist(given) : null;
      if (input.url !== undefined && !list) throw new EngineError("link.invalid", { message: "This link is not a playlist link." });
      const playlist = list ? await playlistLinks(list, { format: input.format, caller, ip, signal }) : null;
      const { urls, format } = bulkLinks(playlist?.urls ?? input.urls ?? [], input.format, caller);
      if (input.language !== undefined) checkLanguage(input.language, format, caller);
      checkSubtitles(caller, format, input.options, mediaTools.burnSubtitles);
      const name = archiveName(input.name ?? playlist?.title ?? "");
      if (signal?.aborted) throw new EngineError("download.failed", { detail: "aborted before it opened" });
      // a full server answers download.busy (Retry-After) rather than queueing the caller
      const release = await admission.acquire();
      const id = `dl_${randomUUID().replace(/-/g, "")}`;
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      active.add(controller);
      const archive = buildBulkArchive(
        { ...serving, resolve: (l, fresh) => resolveCached(l, fresh, undefined, { ip }) },
        { id, urls, format, language: input.language, filenameTemplate: input.filenameTemplate, options: input.options, caller, signal: controller.signal, now: () => new Date(now()), onFiles: input.onFiles },
      );
      archive.done.catch(() => undefined);
      archive.output.once("close", () => {
        release();
        active.delete(controller);
        signal?.removeEventListener("abort", onAbort);
        // a consumer that stopped reading stops the links still to come
        if (!controller.signal.aborted) controller.abort(new Error("the archive's reader closed it"));
      });
      return { stream: archive.output, filename: bulkFilename(new Date(now()), name, input.unbranded), bytes: null, contentType: "application/zip", title: name || "Bulk download", urls, done: archive.done };
    },

    handleDownload(token, req, res, opts = {}) {
      if (isBulkToken(token)) return serveBulk(serving, token, req, res, opts);
      return serveDownload(serving, token, req, res, opts);
    },

    async frame(url, t, opts = {}) {
      if (closing) throw new EngineError("download.busy", { retryAfter: 5, detail: "the engine is closing" });
      const link = parse(url);
      const media = await resolveCached(link, false, undefined, opts);
      // an expired URL of the cached answer: one fresh resolve, which the cache keeps instead (decision 071)
      return openFrame(serving, media, t, { signal: opts.signal, reResolve: (signal) => resolveCached(link, true, undefined, { signal, ip: opts.ip }) });
    },

    subscribeProgress(id, fn) {
      return progress.subscribe(id, fn);
    },

    async close() {
      closing = true;
      for (const c of active) c.abort();
      active.clear();
      await Promise.all(registry.adapters.map((a) => a.close?.()));
      await engineState.close();
      segmentPrefetch.close();
      outbound.close();
    },
  };
  return engine;
}
