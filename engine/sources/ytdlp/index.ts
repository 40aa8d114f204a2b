/**
 * The yt-dlp source (issue 12): links of platforms other than YouTube (Facebook, Instagram, and
 * what else yt-dlp's ~1,800 extractors know) and web pages the generic adapter cannot read. yt-dlp
 * only describes the video (`-J --no-download`, through our forwarding proxy); our engine fetches
 * every byte: probes, manifests and media through the outbound fetch and its SSRF guard.
 */
import { ERRORS, EngineError, isEngineError } from "../../errors.ts";
import type { CaptionTrack, ResolvedMedia, SourceResult, UpstreamRequest, UpstreamStream } from "../../types.ts";
import { fetchWithRequest } from "../../outbound/upstream-request.ts";
import type { PlaylistListing } from "../types.ts";
import { fetchHead } from "../generic/fetch-bytes.ts";
import { mapLimit } from "#common/map-limit.ts";
import { resolveGenericMedia } from "../generic/index.ts";
import { platformNameOf } from "../platform-name.ts";
import type { ParsedLink, SourceAdapter, SourceContext } from "../types.ts";
import { classifyFailure, errorLine } from "./classify.ts";
import type { YtdlpBinary } from "./locate.ts";
import { capToPlatform, captionsOf, chaptersOfInfo, detailsOf, formatsOf, parseInfo, routeFormat, thumbnailsOf, type YtdlpInfo } from "./map-info.ts";
import { startForwardingProxy, type ForwardingProxy, type ProxyRun } from "./proxy.ts";
import { parsePlaylistInfo } from "./playlist.ts";
import { createRunSlots } from "./run-slots.ts";
import { runYtdlp, stderrOf } from "./run.ts";

export type { YtdlpBinary } from "./locate.ts";
export { locateYtdlp } from "./locate.ts";

export interface YtdlpSourceOptions {
  binary: YtdlpBinary;
  /** one metadata run's limit (default 30 s) */
  timeoutMs?: number;
  killGraceMs?: number;
}

export interface YtdlpSource extends SourceAdapter {
  binary: YtdlpBinary;
  /** a YouTube video, for the last rung of the YouTube ladder (its adapter asks; our resolve() refuses YouTube links) */
  resolveYouTube(link: Extract<ParsedLink, { kind: "youtube" }>, ctx: SourceContext): Promise<ResolvedMedia>;
  /** a YouTube video's caption tracks only (one run, no format read): the ladder's fallback for tracks that need a token */
  captionsOfYouTube(link: Extract<ParsedLink, { kind: "youtube" }>, ctx: SourceContext): Promise<CaptionTrack[]>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** yt-dlp processes at once per engine, and resolves that may wait for one */
const MAX_RUNNING = 4;
const MAX_WAITING = 64;
/** formats whose size or codecs we look up at once */
const LOOKUP_CONCURRENCY = 4;
/** entries a playlist listing asks yt-dlp for when the caller sets no cap */
const DEFAULT_PLAYLIST_END = 200;

type Link = Extract<ParsedLink, { kind: "site" | "generic" | "youtube" }>;

/** The stream with the request its format needs (yt-dlp's headers and cookies), when it needs one. */
function withRequest(stream: UpstreamStream, request: UpstreamRequest | undefined): UpstreamStream {
  return request ? { ...stream, request } : stream;
}

/**
 * The context for reading one format while its link resolves: every probe and manifest request
 * carries the format's headers and cookies, and the streams it announces early keep them.
 */
function contextFor(ctx: SourceContext, request: UpstreamRequest | undefined): SourceContext {
  if (!request) return ctx;
  const known = ctx.streamsKnown;
  return { ...ctx, fetch: fetchWithRequest(ctx.fetch, request), ...(known ? { streamsKnown: (streams) => known(streams.map((s) => withRequest(s, request))) } : {}) };
}

/** The streams yt-dlp's formats lead to, each reached, probed and sized through our fetch. */
async function streamsOf(info: YtdlpInfo, ctx: SourceContext): Promise<{ streams: UpstreamStream[]; durationSeconds: number }> {
  const routes = formatsOf(info).map(routeFormat);
  // one read per manifest, with the request of the first format that names it
  const manifestRequests = new Map<string, UpstreamRequest | undefined>();
  for (const r of routes) if (r.type === "manifest" && !manifestRequests.has(r.manifestUrl)) manifestRequests.set(r.manifestUrl, r.request);
  const manifests = [...manifestRequests.keys()];
  const direct = routes.flatMap((r) => (r.type === "direct" ? [r] : []));
  let durationSeconds = info.duration ?? 0;

  const directStreams = await mapLimit(direct, LOOKUP_CONCURRENCY, async ({ stream, codecsKnown }) => {
    const formatCtx = contextFor(ctx, stream.request);
    try {
      if (!codecsKnown) {
        // the site did not say what the file holds: probe its first bytes like any media link
        const probed = await resolveGenericMedia(stream.url, formatCtx);
        durationSeconds ||= probed.details.durationSeconds;
        return probed.streams.map((s) => withRequest({ ...s, id: stream.id, width: s.width ?? stream.width, height: s.height ?? stream.height }, stream.request));
      }
      if (stream.contentLength == null) {
        // a real size for the format list: one byte is enough for the server to say the length
        const head = await fetchHead(formatCtx, stream.url, 1);
        return [{ ...stream, contentLength: head.total }];
      }
      return [stream];
    } catch (err) {
      if (!isEngineError(err) || err.code === "link.blocked_address") throw err;
      ctx.logger.debug({ format: stream.id, code: err.code }, "yt-dlp format left out: our fetch could not read it");
      return [];
    }
  });

  const manifestStreams = await mapLimit(manifests, LOOKUP_CONCURRENCY, async (url, i) => {
    const request = manifestRequests.get(url);
    try {
      const resolved = await resolveGenericMedia(url, contextFor(ctx, request));
      durationSeconds ||= resolved.details.durationSeconds;
      // the segments come from where the manifest sent us: the format's request goes with them
      return resolved.streams.map((s) => withRequest({ ...s, id: `ytdlp-m${i}-${s.id}` }, request));
    } catch (err) {
      if (!isEngineError(err) || err.code === "link.blocked_address" || manifests.length === 1) throw err;
      ctx.logger.debug({ code: err.code }, "yt-dlp manifest left out: our fetch could not read it");
      return [];
    }
  });
  return { streams: [...directStreams.flat(), ...manifestStreams.flat()], durationSeconds };
}

export function createYtdlpSource(opts: YtdlpSourceOptions): YtdlpSource {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const closing = new AbortController();
  let proxy: Promise<ForwardingProxy> | null = null;
  const slots = createRunSlots(MAX_RUNNING, MAX_WAITING);

  const proxyFor = (ctx: SourceContext) => {
    proxy ??= startForwardingProxy({ hostMap: ctx.config.hostMap, allowPrivate: ctx.config.allowPrivateSources, logger: ctx.logger });
    return proxy;
  };

  /** one yt-dlp run for a link (its video, or with `playlistEnd` its flat playlist), its JSON read by `read` */
  async function runFor<T>(link: Link, ctx: SourceContext, read: (stdout: string) => T, playlistEnd?: number): Promise<T> {
    // a share of the slots per client; a client that left stops waiting (run-slots.ts)
    const release = await slots.acquire(ctx.client, ctx.signal);
    let run: ProxyRun | null = null;
    try {
      // yt-dlp's requests leave the way the rest of this resolve does (its URLs are bound to that address)
      run = (await proxyFor(ctx)).startRun(ctx.egress?.dialer);
      const out = await runYtdlp({ binary: opts.binary.path, url: link.url, proxyUrl: run.url, timeoutMs, signal: closing.signal, cancel: ctx.signal, killGraceMs: opts.killGraceMs, playlistEnd, potProviderUrl: ctx.config.youtube.potProviderUrl });
      return read(out.stdout);
    } catch (err) {
      // a destination our guard refused explains the failure better than yt-dlp's "HTTP Error 403"
      if (run && run.refused.length > 0) throw new EngineError("link.blocked_address", { detail: `yt-dlp was refused: ${run.refused.join("; ")}` });
      // a crash or output we cannot read: the platform's page could not be read, say which one
      const unreadable = `Could not read this ${platformNameOf(link)} link right now. Please try again later.`;
      if (isEngineError(err) && err.code === "upstream.api_error") throw new EngineError("upstream.api_error", { detail: err.detail, message: unreadable, cause: err });
      if (isEngineError(err) && err.code !== "upstream.fetch_failed") throw err;
      const stderr = stderrOf(err);
      const line = errorLine(stderr);
      if (!line) throw new EngineError("upstream.api_error", { detail: `yt-dlp failed without an error line: ${(err as Error).message}`, message: unreadable, cause: err });
      throw new EngineError(classifyFailure(stderr), { detail: `yt-dlp: ${line}`, cause: err });
    } finally {
      run?.end();
      release();
    }
  }

  async function describe(link: Link, ctx: SourceContext): Promise<YtdlpInfo> {
    return runFor(link, ctx, parseInfo);
  }

  async function resolveMedia(link: Link, ctx: SourceContext): Promise<ResolvedMedia> {
    const info = await describe(link, ctx);
    const found = await streamsOf(info, ctx);
    const { durationSeconds } = found;
    const streams = capToPlatform(link.kind === "site" ? link.site : undefined, found.streams);
    if (streams.length === 0) {
      // every format behind DRM: out of scope like a login wall (issue 12), not "no formats"
      const drm = formatsOf(info).some((f) => f.has_drm);
      if (drm) throw new EngineError("video.login_required", { detail: `yt-dlp lists only DRM-protected formats (${platformNameOf(link)})` });
      throw new EngineError("video.no_formats", { detail: `yt-dlp listed no format our engine can fetch (${platformNameOf(link)})` });
    }
    const platform = link.kind === "site" ? link.site : link.kind === "youtube" ? "youtube" : "generic";
    const chapters = chaptersOfInfo(info, durationSeconds);
    return {
      platform,
      sourceUrl: link.url,
      details: { ...detailsOf(info, link, Math.round(durationSeconds * 1000) / 1000), platform },
      streams,
      thumbnails: thumbnailsOf(info),
      captions: captionsOf(info),
      ...(chapters ? { chapters } : {}),
    };
  }

  return {
    platform: "generic",
    binary: opts.binary,
    resolveYouTube: resolveMedia,
    captionsOfYouTube: async (link, ctx) => captionsOf(await describe(link, ctx)),
    matches: (link) => link.kind === "site",
    async resolve(link, ctx): Promise<SourceResult<ResolvedMedia>> {
      if (link.kind === "youtube") return { ok: false, code: "link.unsupported", detail: "YouTube links stay on our own adapter" };
      try {
        return { ok: true, media: await resolveMedia(link, ctx) };
      } catch (err) {
        if (isEngineError(err)) return { ok: false, code: err.code, detail: err.detail, ...(err.message !== ERRORS[err.code].message ? { message: err.message } : {}) };
        throw err;
      }
    },
    listsPlaylist: (link) => link.kind === "site",
    async listPlaylist(link, ctx): Promise<SourceResult<PlaylistListing>> {
      if (link.kind !== "site") return { ok: false, code: "link.unsupported", detail: "YouTube playlists stay on our own adapter" };
      try {
        const end = Number.isFinite(ctx.playlistEnough) ? Math.max(1, ctx.playlistEnough!) : DEFAULT_PLAYLIST_END;
        return { ok: true, media: await runFor({ kind: "site", site: link.site, url: link.url }, ctx, (out) => parsePlaylistInfo(out, link), end) };
      } catch (err) {
        if (isEngineError(err)) return { ok: false, code: err.code, detail: err.detail, ...(err.message !== ERRORS[err.code].message ? { message: err.message } : {}) };
        throw err;
      }
    },
    async close() {
      closing.abort();
      const p = proxy;
      proxy = null;
      if (p) await (await p).close();
    },
  };
}
