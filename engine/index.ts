/**
 * The engine's public face (DESIGN §6): link → source adapter → formats/plan → signed link →
 * stream. The host (server/) builds one engine from an EngineConfig and hands it to the API
 * router; nothing here reads process.env.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseLink, type ParsedLink } from "../common/links.ts";
import type { EngineConfig } from "./config.ts";
import { canDownload } from "./entitlements.ts";
import { EngineError, ERRORS, errorBody, isEngineError, type EngineErrorCode } from "./errors.ts";
import { filenameFor, isFormatId, listFormats, planFormat } from "./formats.ts";
import { locateMediaTools, type MediaTools } from "./media/ffmpeg.ts";
import { createSourceRegistry, defaultSources } from "./sources/index.ts";
import type { SourceAdapter, SourceContext } from "./sources/types.ts";
import { createAdmission, createProgressRegistry, streamToResponse, type DownloadProgress } from "./stream/downloads.ts";
import { createOutbound, type Outbound, type ResolveHost } from "./stream/outbound-fetch.ts";
import { runPlan } from "./stream/run-plan.ts";
import { signDownload, verifyDownload } from "./stream/signed-links.ts";
import type { Caller, FormatOption, ResolvedMedia, UpstreamStream, VideoDetails } from "./types.ts";

export type { DownloadProgress, DownloadState } from "./stream/downloads.ts";
export type { EngineConfig } from "./config.ts";

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
  /** streams a signed link's file; writes a JSON error itself when the failure comes before headers */
  handleDownload(token: string, req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** throws EngineError("download.not_found") for an unknown id */
  subscribeProgress(id: string, fn: (p: DownloadProgress) => void): () => void;
  mediaTools: MediaTools;
  close(): Promise<void>;
}

/** Seams for tests and the benchmark; production passes none. */
export interface EngineDeps {
  sources?: SourceAdapter[];
  media?: MediaTools;
  /** DNS for the outbound guard */
  resolveHost?: ResolveHost;
  now?: () => number;
  /** ffmpeg SIGTERM → SIGKILL grace */
  killGraceMs?: number;
}

interface CacheEntry {
  expires: number;
  media: Promise<ResolvedMedia>;
}

const MAX_CACHE_ENTRIES = 500;
/** stream URLs are not reused this close to their expiry */
const EXPIRY_MARGIN_MS = 60_000;

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
    logger,
    resolve: deps.resolveHost,
  });
  const registry = createSourceRegistry(deps.sources ?? defaultSources());
  const ctx: SourceContext = { fetch: outbound.fetch, config, logger, media: mediaTools };
  const progress = createProgressRegistry({ now });
  const admission = createAdmission({
    maxConcurrent: config.limits.maxConcurrentDownloads,
    perIpPerHour: config.limits.downloadsPerIpPerHour,
    now,
  });
  const cache = new Map<string, CacheEntry>();
  const active = new Set<AbortController>();
  const publicUrl = config.publicUrl.replace(/\/+$/, "");

  function parse(url: string): ParsedLink {
    const parsed = parseLink(url);
    if (!parsed.ok) throw new EngineError(parsed.code);
    return parsed.kind === "youtube" ? { kind: "youtube", id: parsed.id, url: parsed.url } : { kind: "generic", url: parsed.url };
  }

  async function resolveFresh(link: ParsedLink): Promise<ResolvedMedia> {
    const adapter = registry.pick(link);
    const result = await adapter.resolve(link, ctx);
    if (!result.ok) throw failureToError(result as { code: EngineErrorCode; detail?: string; message?: string });
    return result.media;
  }

  /** Resolve results are reused briefly (and shared by concurrent callers); failures are not kept. */
  function resolveCached(link: ParsedLink, fresh = false): Promise<ResolvedMedia> {
    const key = link.url;
    const hit = cache.get(key);
    const t = now();
    if (hit && !fresh && hit.expires > t) return hit.media;
    const media = resolveFresh(link);
    const entry: CacheEntry = { expires: t + config.limits.resolveCacheSeconds * 1000, media };
    cache.delete(key);
    if (config.limits.resolveCacheSeconds > 0) cache.set(key, entry);
    if (cache.size > MAX_CACHE_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    media.then(
      (m) => {
        if (m.expiresAt) entry.expires = Math.min(entry.expires, m.expiresAt - EXPIRY_MARGIN_MS);
      },
      () => {
        if (cache.get(key) === entry) cache.delete(key);
      },
    );
    return media;
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

    async resolve(url, caller) {
      const media = await resolveCached(parse(url));
      return { video: media.details, formats: listFormats(media, caller) };
    },

    async createDownload({ url, format, caller, ip }) {
      const link = parse(url);
      if (!isFormatId(format)) throw new EngineError("format.unknown", { detail: format });
      if (!canDownload(caller, format)) throw new EngineError("format.premium");
      admission.hit(ip);
      const media = await resolveCached(link);
      const plan = planFormat(media, format);
      const id = `dl_${randomUUID().replace(/-/g, "")}`;
      const exp = Math.floor(now() / 1000) + config.limits.linkTtlSeconds;
      const token = signDownload(config.signingSecret, { id, url: link.url, format, caller: caller.kind, plan: caller.plan, exp });
      progress.create(id, plan.bytes);
      return {
        id,
        downloadUrl: `${publicUrl}/api/v1/dl/${token}`,
        filename: filenameFor(media, format),
        expiresAt: new Date(exp * 1000).toISOString(),
        bytes: plan.bytes,
      };
    },

    async handleDownload(token, req, res) {
      let release: (() => void) | null = null;
      const controller = new AbortController();
      // A client that leaves while we resolve or open upstreams stops that work too.
      const onEarlyClose = () => {
        if (!res.headersSent) controller.abort();
      };
      res.once("close", onEarlyClose);
      let claimsId: string | null = null;
      try {
        const claims = verifyDownload(config.signingSecret, token, now());
        claimsId = claims.id;
        const caller: Caller = { kind: claims.caller, plan: claims.plan };
        if (!isFormatId(claims.format)) throw new EngineError("download.link_invalid");
        if (!canDownload(caller, claims.format)) throw new EngineError("format.premium");
        release = admission.acquire();
        active.add(controller);
        const link = parse(claims.url);
        const media = await resolveCached(link);
        const plan = planFormat(media, claims.format);
        const filename = filenameFor(media, claims.format);
        const rangeHeader = typeof req.headers.range === "string" ? req.headers.range : undefined;
        let refreshing: { at: number; media: Promise<ResolvedMedia> } | null = null;
        const out = await runPlan(
          plan,
          {
            outbound,
            media: mediaTools,
            limits: config.limits,
            logger: logger.child({ download: claims.id }),
            signal: controller.signal,
            killGraceMs: deps.killGraceMs,
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
        if (controller.signal.aborted) {
          out.teardown();
          throw new EngineError("download.failed", { detail: "client left before the first byte" });
        }
        res.off("close", onEarlyClose);
        const offset = out.status === 206 ? Number(/bytes (\d+)-/.exec(out.headers["content-range"] ?? "")?.[1] ?? 0) : 0;
        const total = out.status === 206 ? Number(/\/(\d+)$/.exec(out.headers["content-range"] ?? "")?.[1]) || out.length : out.length;
        progress.start(claims.id, total, offset);
        const releaseSlot = release;
        release = null;
        const id = claims.id;
        streamToResponse(res, out, {
          filename,
          headOnly: req.method === "HEAD",
          onBytes: (n) => progress.addBytes(id, n),
          onEnd: (state, err) => {
            releaseSlot();
            active.delete(controller);
            progress.finish(id, state);
            if (state === "failed") logger.warn({ err, download: id }, "download failed after headers; connection aborted");
            else logger.debug({ download: id, state }, "download ended");
          },
        });
      } catch (err) {
        release?.();
        active.delete(controller);
        res.off("close", onEarlyClose);
        const e = isEngineError(err) ? err : new EngineError("download.failed", { cause: err, detail: (err as Error)?.message });
        if (claimsId && progress.has(claimsId)) progress.finish(claimsId, controller.signal.aborted ? "aborted" : "failed");
        if (e.status >= 500) logger.error({ err: e, detail: e.detail }, "download failed");
        else logger.info({ code: e.code, detail: e.detail }, "download refused");
        if (res.headersSent) {
          res.destroy(e);
        } else if (!res.destroyed && !controller.signal.aborted) {
          writeError(res, e);
        }
      }
    },

    subscribeProgress(id, fn) {
      return progress.subscribe(id, fn);
    },

    async close() {
      for (const c of active) c.abort();
      active.clear();
      cache.clear();
      outbound.close();
    },
  };
  return engine;
}
