/**
 * The engine's public face (DESIGN §6): link → source adapter → formats/plan → signed link →
 * stream. The host (server/) builds one engine from an EngineConfig and hands it to the API
 * router; nothing here reads process.env.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseLink, type ParsedLink } from "../common/links.ts";
import type { EngineConfig } from "./config.ts";
import { canDownload, fairUseApplies } from "./entitlements.ts";
import { EngineError, ERRORS, errorBody, isEngineError, redactUrls, type EngineErrorCode } from "./errors.ts";
import { filenameFor, isFormatId, listFormats, planFormat } from "./formats.ts";
import { locateMediaTools, type MediaTools } from "./media/ffmpeg.ts";
import type { SpawnGate } from "./media/spawn-gate.ts";
import { createSourceRegistry, defaultSources } from "./sources/index.ts";
import { locateYtdlp, type YtdlpBinary } from "./sources/ytdlp/index.ts";
import type { SourceAdapter, SourceContext } from "./sources/types.ts";
import { createCachedResolver } from "./state/cached-resolve.ts";
import { memoryEngineState } from "./state/memory.ts";
import type { EngineStateFactory } from "./state/types.ts";
import { streamToResponse, type DownloadProgress } from "./stream/downloads.ts";
import { requestKind } from "./stream/link-usage.ts";
import { createOutbound, type Outbound, type ResolveHost } from "./stream/outbound-fetch.ts";
import { runPlan, segmentsInFlight } from "./stream/run-plan.ts";
import { segmentsAhead } from "./stream/segment-reader.ts";
import { createSegmentPrefetch } from "./stream/segment-prefetch.ts";
import { signDownload, verifyDownload } from "./stream/signed-links.ts";
import type { Caller, FormatId, FormatOption, MediaPlan, ResolvedMedia, UpstreamStream, VideoDetails } from "./types.ts";

export type { DownloadProgress, DownloadState } from "./stream/downloads.ts";
export type { EngineConfig } from "./config.ts";
export type { EngineState, EngineStateFactory } from "./state/types.ts";

export interface CreatedDownload {
  id: string;
  downloadUrl: string;
  filename: string;
  expiresAt: string;
  bytes: number | null;
}

export interface Engine {
  resolve(url: string, caller: Caller): Promise<{ video: VideoDetails; formats: FormatOption[] }>;
  createDownload(input: { url: string; format: string; caller: Caller; ip: string }): Promise<CreatedDownload>;
  /**
   * Streams a signed link's file; writes a JSON error itself when the failure comes before
   * headers. `ip` is the client address for fair use (the host's view, after `trust proxy`);
   * without it the request's `ip` (Express) or socket address is used.
   */
  handleDownload(token: string, req: IncomingMessage, res: ServerResponse, opts?: { ip?: string }): Promise<void>;
  /** rejects with EngineError("download.not_found") for an unknown id; resolves to the unsubscribe */
  subscribeProgress(id: string, fn: (p: DownloadProgress) => void): Promise<() => void>;
  mediaTools: MediaTools;
  /** the yt-dlp resolving other platforms' links, or null when this server has none */
  ytdlp: YtdlpBinary | null;
  close(): Promise<void>;
}

/** One stream of a signed link ended (HEAD requests excepted); see EngineDeps.onDownloadFinished. */
export interface DownloadFinished {
  /** the download id (one per signed link; Range resumes of a link share it) */
  id: string;
  /** who created the link (`userId` when a signed-in account did) */
  caller: Caller;
  format: FormatId;
  title: string;
  /** the file's size when known, else the bytes this stream sent */
  bytes: number | null;
  /** this stream delivered the file to its last byte (a full download, or a resume that reached the end) */
  complete: boolean;
}

/** Seams for tests and the benchmark; production passes none. */
export interface EngineDeps {
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
}
const DEFAULT_MAX_CONCURRENT_PER_IP = 10;
const DEFAULT_MAX_STREAMS_PER_LINK = 2;
/** seconds a client stopped by a shutdown is asked to wait (a restart takes about this long) */
const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

/** The client address when the host does not pass one: Express's `req.ip` honours `trust proxy`. */
function requestIp(req: IncomingMessage): string {
  const expressIp = (req as IncomingMessage & { ip?: unknown }).ip;
  return typeof expressIp === "string" && expressIp ? expressIp : (req.socket.remoteAddress ?? "unknown");
}

/** A download refused or stopped because the engine is closing (a restart or deploy). */
function shuttingDown(): EngineError {
  return new EngineError("download.busy", { retryAfter: SHUTDOWN_RETRY_AFTER_SECONDS, detail: "the engine is closing" });
}

/** A premium format refused: a Basic subscriber is told which plans have it, not to "upgrade to Premium". */
function premiumRefusal(caller: Caller): EngineError {
  return new EngineError("format.premium", caller.kind === "premium" ? { message: PAID_PLAN_LACKS_FORMAT } : {});
}

export const PAID_PLAN_LACKS_FORMAT = "This format comes with the Pro and Ultimate plans. Change your plan to download it.";

function failureToError(result: { code: EngineErrorCode; detail?: string; message?: string }): EngineError {
  const message = result.message && result.message !== ERRORS[result.code].message ? result.message : undefined;
  return new EngineError(result.code, { detail: result.detail, message });
}

export async function createEngine(config: EngineConfig, deps: EngineDeps = {}): Promise<Engine> {
  const logger = config.logger;
  const now = deps.now ?? Date.now;
  const mediaTools = deps.media ?? (await locateMediaTools({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath }));
  const outbound: Outbound = createOutbound({
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
  const ctx: SourceContext = { fetch: outbound.fetch, config, logger, media: mediaTools };
  const segmentPrefetch = createSegmentPrefetch({ open: outbound.open, logger });
  const engineState = (deps.state ?? memoryEngineState)({
    limits: {
      maxConcurrent: config.limits.maxConcurrentDownloads,
      perIpPerHour: config.limits.downloadsPerIpPerHour,
      perIpConcurrent: config.limits.maxConcurrentDownloadsPerIp ?? DEFAULT_MAX_CONCURRENT_PER_IP,
      perLinkConcurrent: config.limits.maxConcurrentStreamsPerLink ?? DEFAULT_MAX_STREAMS_PER_LINK,
    },
    now,
  });
  const { progress, admission, linkUsage } = engineState;
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

  /** a download being created: its id and format */
  interface ForDownload {
    id: string;
    format: FormatId;
  }

  async function resolveFresh(link: ParsedLink, forDownload?: ForDownload): Promise<ResolvedMedia> {
    const adapter = registry.pick(link);
    // a resolve for a download being created: segments it will likely read are fetched while
    // the adapter still probes (decision 025)
    const resolveCtx: SourceContext = forDownload ? { ...ctx, streamsKnown: (streams) => prefetchLikelyInputs(link, forDownload, streams) } : ctx;
    const result = await adapter.resolve(link, resolveCtx);
    if (!result.ok) throw failureToError(result as { code: EngineErrorCode; detail?: string; message?: string });
    return result.media;
  }

  /** Resolve results are reused briefly (shared by concurrent callers; see state/cached-resolve.ts). */
  function resolveCached(link: ParsedLink, fresh = false, forDownload?: ForDownload): Promise<ResolvedMedia> {
    return resolver.resolve(link.url, () => resolveFresh(link, forDownload), fresh);
  }

  /** Starts fetching the first parts of each segmented input of `plan` for download `id` (decisions 025, 029). */
  function prefetchInputs(plan: MediaPlan, id: string): void {
    const inputs = plan.op === "remux" ? plan.inputs : plan.op === "transcode" || plan.op === "passthrough" ? [plan.input] : [];
    for (const s of inputs) {
      if (s.transport.type !== "segments") continue;
      const { init, segments } = s.transport;
      // what the segment reader holds once it opens (init included): as many parts in flight as
      // it keeps, and as many again fetched ahead; fetched here as it would, the next as one is in
      const inFlight = segmentsInFlight(config.limits.segmentConcurrency, segments);
      segmentPrefetch.start((init ? [init, ...segments] : segments).slice(0, inFlight + segmentsAhead(inFlight)), id, inFlight);
    }
  }

  /**
   * Streams an adapter knows before it has finished describing them: the plan they would give
   * (codecs unknown count as copyable, as in planFormat) names the inputs to prefetch. A guess:
   * when the finished streams plan differently, what was fetched is dropped unused.
   */
  function prefetchLikelyInputs(link: ParsedLink, forDownload: ForDownload, streams: UpstreamStream[]): void {
    const provisional = { platform: "generic", sourceUrl: link.url, details: { durationSeconds: 0 } as VideoDetails, streams, thumbnails: [], captions: [] } satisfies ResolvedMedia;
    let plan: MediaPlan;
    try {
      plan = planFormat(provisional, forDownload.format);
    } catch {
      return;
    }
    prefetchInputs(plan, forDownload.id);
  }

  function sameStream(a: UpstreamStream, b: UpstreamStream): boolean {
    return a.id === b.id && a.kind === b.kind;
  }

  function writeError(res: ServerResponse, err: EngineError): void {
    const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
    if (err.retryAfter !== undefined) headers["retry-after"] = String(err.retryAfter);
    if (err.code === "download.range_invalid" && err.detail) headers["content-range"] = err.detail;
    res.writeHead(err.status, headers);
    res.end(JSON.stringify(errorBody(err)));
  }

  const engine: Engine = {
    mediaTools,
    ytdlp,

    async resolve(url, caller) {
      const media = await resolveCached(parse(url));
      return { video: media.details, formats: listFormats(media, caller) };
    },

    async createDownload({ url, format, caller, ip }) {
      const link = parse(url);
      if (!isFormatId(format)) throw new EngineError("format.unknown", { detail: format });
      if (!canDownload(caller, format)) throw premiumRefusal(caller);
      // Fair use is counted when the link streams; an IP already at its limit learns it here,
      // before the page navigates to a link that would be refused. Paid plans have no fair use.
      if (fairUseApplies(caller)) await admission.check(ip);
      const id = `dl_${randomUUID().replace(/-/g, "")}`;
      let media: ResolvedMedia;
      let plan: MediaPlan;
      try {
        media = await resolveCached(link, false, { id, format });
        plan = planFormat(media, format);
      } catch (err) {
        segmentPrefetch.release(id);
        throw err;
      }
      // the client opens the link next: its first segments are on their way meanwhile
      prefetchInputs(plan, id);
      const exp = Math.floor(now() / 1000) + config.limits.linkTtlSeconds;
      const token = signDownload(config.signingSecret, { id, url: link.url, format, caller: caller.kind, plan: caller.plan, userId: caller.userId, exp });
      progress.create(id, plan.bytes);
      return {
        id,
        downloadUrl: `${publicUrl}/api/v1/dl/${token}`,
        filename: filenameFor(media, format),
        expiresAt: new Date(exp * 1000).toISOString(),
        bytes: plan.bytes,
      };
    },

    async handleDownload(token, req, res, opts = {}) {
      let release: (() => void) | null = null;
      let releaseStream: (() => void) | null = null;
      let refund: (() => void) | null = null;
      const controller = new AbortController();
      // A client that leaves while we resolve or open upstreams stops that work too.
      const onEarlyClose = () => {
        if (!res.headersSent) controller.abort();
      };
      res.once("close", onEarlyClose);
      let claimsId: string | null = null;
      /** set once the request passed every refusal and work began: failures then count as a failed download */
      let started: Omit<DownloadFinished, "bytes" | "complete"> | null = null;
      try {
        if (closing) throw shuttingDown();
        const claims = verifyDownload(config.signingSecret, token, now());
        claimsId = claims.id;
        const id = claims.id;
        const caller: Caller = { kind: claims.caller, plan: claims.plan, userId: claims.userId };
        const fairUse = fairUseApplies(caller);
        if (!isFormatId(claims.format)) throw new EngineError("download.link_invalid");
        if (!canDownload(caller, claims.format)) throw premiumRefusal(caller);
        const ip = opts.ip ?? requestIp(req);
        const headOnly = req.method === "HEAD";
        const rangeHeader = typeof req.headers.range === "string" ? req.headers.range : undefined;
        let kind = requestKind(rangeHeader);
        const expiresAtMs = claims.exp * 1000;
        // Cheapest refusals first, all before any upstream work: a used-up link, too many
        // streams for this IP or link, a full server, then fair use (counted for full downloads).
        await linkUsage.admit(id, kind, expiresAtMs);
        releaseStream = await admission.acquireStream(ip, id);
        release = await admission.acquire();
        if (kind === "full" && !headOnly && fairUse) refund = await admission.hit(ip);
        active.add(controller);
        const link = parse(claims.url);
        const media = await resolveCached(link);
        const plan = planFormat(media, claims.format);
        const filename = filenameFor(media, claims.format);
        const format = claims.format;
        if (!headOnly) started = { id, caller, format, title: media.details.title };
        let refreshing: { at: number; media: Promise<ResolvedMedia> } | null = null;
        const out = await runPlan(
          plan,
          {
            outbound,
            media: mediaTools,
            limits: config.limits,
            logger: logger.child({ download: id }),
            signal: controller.signal,
            killGraceMs: deps.killGraceMs,
            spawnGate: deps.spawnGate,
            prefetch: segmentPrefetch,
            refreshStream: async (stream) => {
              // Video and audio inputs usually expire together: one fresh resolve serves both.
              if (!refreshing || now() - refreshing.at > 5000) refreshing = { at: now(), media: resolveCached(link, true) };
              const freshMedia = await refreshing.media;
              const match = freshMedia.streams.find((s) => sameStream(s, stream));
              if (!match) throw new EngineError("upstream.expired", { detail: `stream ${stream.id} is gone after re-resolving` });
              return match;
            },
          },
          { range: rangeHeader },
        );
        // the readers took what was fetched for them; anything else was a guess that missed
        segmentPrefetch.release(id);
        if (controller.signal.aborted) {
          out.teardown();
          throw new EngineError("download.failed", { detail: "client left before the first byte" });
        }
        const offset = out.status === 206 ? Number(/bytes (\d+)-/.exec(out.headers["content-range"] ?? "")?.[1] ?? 0) : 0;
        const total = out.status === 206 ? Number(/\/(\d+)$/.exec(out.headers["content-range"] ?? "")?.[1]) || out.length : out.length;
        try {
          if (kind === "resume" && out.status === 200) {
            // The range was not honoured (a file made while it streams): the whole file goes out,
            // so this is a full download after all.
            kind = "full";
            await linkUsage.admit(id, kind, expiresAtMs);
            if (!headOnly && fairUse) refund = await admission.hit(ip);
          }
          await linkUsage.setSize(id, total);
          // the first resume of a link learns the file's size only now
          if (kind === "resume") await linkUsage.admit(id, kind, expiresAtMs);
        } catch (err) {
          out.teardown();
          throw err;
        }
        res.off("close", onEarlyClose);
        progress.start(id, total, offset);
        const releaseSlot = release;
        const releaseLinkSlot = releaseStream;
        release = null;
        releaseStream = null;
        refund = null;
        const fullDownload = kind === "full" && !headOnly;
        const rangeEnd = out.status === 206 ? Number(/-(\d+)\//.exec(out.headers["content-range"] ?? "")?.[1]) : null;
        // a 200 is the whole file; a 206 completes it when its range runs to the last byte
        const reachesEnd = rangeEnd === null || (total !== null && rangeEnd === total - 1);
        const finished = started;
        started = null;
        let sent = 0;
        streamToResponse(res, out, {
          filename,
          headOnly,
          onBytes: (n) => {
            sent += n;
            progress.addBytes(id, n);
            linkUsage.addBytes(id, n);
          },
          // a whole file delivered uses the link up, on every instance, before the client sees the end
          beforeEnd: fullDownload
            ? () => linkUsage.complete(id).catch((err: unknown) => logger.warn({ download: id, err }, "could not record a completed link"))
            : undefined,
          onEnd: (state, err) => {
            releaseSlot();
            releaseLinkSlot();
            active.delete(controller);
            progress.finish(id, state);
            if (finished) reportFinished({ ...finished, bytes: total ?? offset + sent, complete: state === "done" && reachesEnd });
            if (state === "failed") logger.warn({ download: id, code: isEngineError(err) ? err.code : undefined, detail: redactUrls(err?.message) }, "download failed after headers; connection aborted");
            else logger.debug({ download: id, state }, "download ended");
          },
        });
      } catch (err) {
        release?.();
        releaseStream?.();
        // nothing was sent: the attempt does not count against fair use
        refund?.();
        active.delete(controller);
        res.off("close", onEarlyClose);
        // Stopped by close() while the client still waits: it may retry against the next process.
        const stoppedByClose = closing && controller.signal.aborted && !res.destroyed;
        const e = stoppedByClose ? shuttingDown() : isEngineError(err) ? err : new EngineError("download.failed", { cause: err, detail: (err as Error)?.message });
        if (claimsId) {
          progress.finish(claimsId, controller.signal.aborted ? "aborted" : "failed");
          // a download that failed or was left before its readers opened: nothing of it is fetched on
          segmentPrefetch.release(claimsId);
        }
        // work had begun (resolve, upstream, ffmpeg) and failed: the user saw a failed download
        if (started) reportFinished({ ...started, bytes: null, complete: false });
        // The download id, never the token (a replayable link) or the visitor's link.
        const fields = { download: claimsId ?? undefined, code: e.code, detail: redactUrls(e.detail) };
        if (closing) {
          logger.info(fields, "download stopped: the engine is closing");
        } else if (controller.signal.aborted) {
          // the client left before the first byte: not a server fault
          logger.info(fields, "download stopped: the client left before the first byte");
        } else if (e.status >= 500) {
          const cause = e.cause instanceof Error ? redactUrls(e.cause.message) : undefined;
          logger.error({ ...fields, cause, stack: e.stack }, "download failed");
        } else logger.info(fields, "download refused");
        if (res.headersSent) {
          res.destroy(e);
        } else if (!res.destroyed && (!controller.signal.aborted || stoppedByClose)) {
          writeError(res, e);
        }
      }
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
