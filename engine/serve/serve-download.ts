/**
 * Serving one signed link (`GET`/`HEAD /api/v1/dl/:token`): the refusals, the slots a stream
 * holds, the plan run and streamed to the response, and what a failure says and logs.
 * createEngine (engine/index.ts) wires one ServeContext and calls serveDownload per request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { ParsedLink, PlatformId } from "#common/links.ts";
import type { EngineConfig } from "../config.ts";
import { canDownload, fairUseApplies } from "../entitlements.ts";
import { EngineError, errorBody, isEngineError, redactUrls, type EngineErrorCode } from "../errors.ts";
import { isFormatId } from "../formats.ts";
import type { MediaTools } from "../media/ffmpeg.ts";
import type { SpawnGate } from "../media/spawn-gate.ts";
import { premiumRefusal } from "../refusals.ts";
import type { AdmissionStore, EngineState } from "../state/types.ts";
import type { ProgressError } from "../state/progress-registry.ts";
import type { Caller, FormatId, ResolvedMedia } from "../types.ts";
import { streamToResponse } from "./stream-to-response.ts";
import { requestKind } from "../state/link-usage.ts";
import type { Outbound } from "../outbound/outbound-fetch.ts";
import type { PlanOutput } from "../stream/run-plan.ts";
import { openMedia } from "./open-media.ts";
import type { SegmentPrefetch } from "../stream/segment-prefetch.ts";
import { verifyDownload } from "./signed-links.ts";
import type { RefusalPolicy } from "../stream/refusal-ladder.ts";
import type { SponsorBlock } from "../sources/youtube/sponsorblock.ts";

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
  /** the link's platform (YouTube or a yt-dlp one), when it is one: the host keeps its health */
  platform?: PlatformId;
  /** why the stream failed on our side (not when the client left) */
  error?: EngineErrorCode;
  /** the platform client whose URLs it fetched (ResolvedMedia.client) and the egress of its answer */
  client?: string;
  egress?: string;
  /** who asked (the client address), when the engine knows it */
  ip?: string;
  /** false: no visitor's download (a job's own file, a canary's check): the host keeps no history of it */
  history?: false;
}

/** What a failed download's progress says (the SSE stream, then the downloader): the catalogue's code and words. */
export function progressError(err: Error | undefined): ProgressError {
  const e = isEngineError(err) ? err : new EngineError("download.failed");
  return { code: e.code, message: e.message };
}

/** What a finished stream of this media tells the host about the platform: its id, client and egress. */
export function platformOfMedia(link: ParsedLink, media: ResolvedMedia): Pick<DownloadFinished, "platform" | "client" | "egress"> {
  const platform: PlatformId | undefined = link.kind === "youtube" ? "youtube" : link.kind === "site" ? link.site : undefined;
  if (!platform) return {};
  return { platform, egress: egressOf(media), ...(media.client ? { client: media.client } : {}) };
}

/**
 * The egress a resolved media names (`proxy-1`, `ipv6`…: the id of the way out its answer took,
 * given as a string or as `{ id }`), else `direct`.
 */
export function egressOf(media: ResolvedMedia | undefined): string {
  const egress = (media as { egress?: unknown } | undefined)?.egress;
  const id = typeof egress === "object" && egress !== null ? (egress as { id?: unknown }).id : egress;
  return typeof id === "string" && id !== "" ? id : "direct";
}

/** What serving a link needs from the engine around it. */
export interface ServeContext {
  config: EngineConfig;
  logger: Logger;
  now: () => number;
  state: Pick<EngineState, "admission" | "progress" | "linkUsage">;
  outbound: Outbound;
  media: MediaTools;
  prefetch: SegmentPrefetch;
  parse(url: string): ParsedLink;
  /** the media behind a link (cached; `fresh` skips the cache) */
  resolve(link: ParsedLink, fresh?: boolean): Promise<ResolvedMedia>;
  /**
   * a fresh resolve that leaves out the platform clients named (YouTube's InnerTube clients), never
   * cached: a download's way round a client whose URLs are refused (stream-refresh.ts)
   */
  resolveAvoiding?(link: ParsedLink, clients: readonly string[], signal: AbortSignal): Promise<ResolvedMedia>;
  /** rests the egress whose URLs were refused and resolves afresh on another; null when there is no other (egress.ts) */
  resolveOnOtherEgress?(link: ParsedLink, refused: string, signal: AbortSignal): Promise<ResolvedMedia> | null;
  /** how downloads answer a refusal (403) mid-way (defaults: refusal-ladder.ts) */
  refusals?: RefusalPolicy;
  /** true once the engine closes: new downloads are answered "busy" */
  isClosing(): boolean;
  /** the downloads running now, aborted by the engine's close() */
  active: Set<AbortController>;
  reportFinished(event: DownloadFinished): void;
  killGraceMs?: number;
  spawnGate?: SpawnGate;
  /** SponsorBlock's segments (engine/sources/youtube/sponsorblock.ts); absent: none are ever applied */
  sponsorBlock?: SponsorBlock;
}

/** seconds a client stopped by a shutdown is asked to wait (a restart takes about this long) */
const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

/** A download refused or stopped because the engine is closing (a restart or deploy). */
function shuttingDown(): EngineError {
  return new EngineError("download.busy", { retryAfter: SHUTDOWN_RETRY_AFTER_SECONDS, detail: "the engine is closing" });
}

/** The client address when the host does not pass one: Express's `req.ip` honours `trust proxy`. */
function requestIp(req: IncomingMessage): string {
  const expressIp = (req as IncomingMessage & { ip?: unknown }).ip;
  return typeof expressIp === "string" && expressIp ? expressIp : (req.socket.remoteAddress ?? "unknown");
}

/**
 * What one stream holds while it runs: its IP's and its link's stream slot, a server-wide
 * streaming slot and, for a full download under fair use, its count for the hour. Until the
 * stream starts, `giveBack` returns all of it (nothing was sent, so the count is refunded too);
 * once it starts, `keep` hands over the release of the slots and the count stays.
 */
export class StreamSlots {
  private releases: (() => void)[] = [];
  private refund: (() => void) | null = null;

  constructor(private readonly admission: AdmissionStore) {}

  /** the link's and IP's slot first, then the server's: each is held as soon as it is granted */
  async take(ip: string, linkId: string): Promise<void> {
    this.releases.push(await this.admission.acquireStream(ip, linkId));
    this.releases.push(await this.admission.acquire());
  }

  async countFairUse(ip: string): Promise<void> {
    this.refund = await this.admission.hit(ip);
  }

  giveBack(): void {
    const releases = this.releases;
    this.releases = [];
    for (const release of releases) release();
    this.refund?.();
    this.refund = null;
  }

  keep(): () => void {
    const releases = this.releases;
    this.releases = [];
    this.refund = null;
    return () => {
      for (const release of releases) release();
    };
  }
}

/** Where a plan's output sits in the file: its first byte, the file's size, and whether it runs to the last byte. */
export function outputSpan(out: Pick<PlanOutput, "status" | "headers" | "length">): { offset: number; total: number | null; reachesEnd: boolean } {
  if (out.status !== 206) return { offset: 0, total: out.length, reachesEnd: true };
  const contentRange = out.headers["content-range"] ?? "";
  const offset = Number(/bytes (\d+)-/.exec(contentRange)?.[1] ?? 0);
  const total = Number(/\/(\d+)$/.exec(contentRange)?.[1]) || out.length;
  const rangeEnd = Number(/-(\d+)\//.exec(contentRange)?.[1]);
  return { offset, total, reachesEnd: total !== null && rangeEnd === total - 1 };
}

function writeError(res: ServerResponse, err: EngineError): void {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
  if (err.retryAfter !== undefined) headers["retry-after"] = String(err.retryAfter);
  if (err.code === "download.range_invalid" && err.detail) headers["content-range"] = err.detail;
  res.writeHead(err.status, headers);
  res.end(JSON.stringify(errorBody(err)));
}

/** The download id, never the token (a replayable link) or the visitor's link. */
function logFailure(logger: Logger, e: EngineError, at: { id: string | null; closing: boolean; clientLeft: boolean }): void {
  const fields = { download: at.id ?? undefined, code: e.code, detail: redactUrls(e.detail) };
  if (at.closing) {
    logger.info(fields, "download stopped: the engine is closing");
  } else if (at.clientLeft) {
    // the client left before the first byte: not a server fault
    logger.info(fields, "download stopped: the client left before the first byte");
  } else if (e.status >= 500) {
    const cause = e.cause instanceof Error ? redactUrls(e.cause.message) : undefined;
    logger.error({ ...fields, cause, stack: e.stack }, "download failed");
  } else logger.info(fields, "download refused");
}

/**
 * Streams a signed link's file; writes a JSON error itself when the failure comes before
 * headers, and breaks the connection when it comes after.
 */
export async function serveDownload(ctx: ServeContext, token: string, req: IncomingMessage, res: ServerResponse, opts: { ip?: string } = {}): Promise<void> {
  const { progress, linkUsage, admission } = ctx.state;
  const slots = new StreamSlots(admission);
  const controller = new AbortController();
  // A client that leaves while we resolve or open upstreams stops that work too.
  const onEarlyClose = () => {
    if (!res.headersSent) controller.abort();
  };
  res.once("close", onEarlyClose);
  let claimsId: string | null = null;
  /** set once the request passed every refusal and work began: failures then count as a failed download */
  // (set in a callback: the cast keeps TypeScript from narrowing it to null)
  let started = null as Omit<DownloadFinished, "bytes" | "complete" | "error"> | null;
  try {
    if (ctx.isClosing()) throw shuttingDown();
    const claims = verifyDownload(ctx.config.signingSecret, token, ctx.now());
    claimsId = claims.id;
    const id = claims.id;
    const caller: Caller = { kind: claims.caller, plan: claims.plan, userId: claims.userId };
    const fairUse = fairUseApplies(caller);
    if (!isFormatId(claims.format)) throw new EngineError("download.link_invalid");
    if (!canDownload(caller, claims.format)) throw premiumRefusal(caller);
    const format = claims.format;
    const ip = opts.ip ?? requestIp(req);
    const headOnly = req.method === "HEAD";
    const rangeHeader = typeof req.headers.range === "string" ? req.headers.range : undefined;
    let kind = requestKind(rangeHeader);
    const expiresAtMs = claims.exp * 1000;
    // when the link was made (its lifetime before its expiry): a store that lost its state since refuses it
    const issuedAtMs = expiresAtMs - ctx.config.limits.linkTtlSeconds * 1000;
    // Cheapest refusals first, all before any upstream work: a used-up link, too many
    // streams for this IP or link, a full server, then fair use (counted for full downloads).
    await linkUsage.admit(id, kind, expiresAtMs, issuedAtMs);
    await slots.take(ip, id);
    if (kind === "full" && !headOnly && fairUse) await slots.countFairUse(ip);
    ctx.active.add(controller);
    const link = ctx.parse(claims.url);
    const { out, filename, sponsorBlock } = await openMedia(ctx, link, format, {
      id,
      caller,
      signal: controller.signal,
      range: rangeHeader,
      language: claims.language,
      filenameTemplate: claims.template,
      options: claims.options,
      onResolved: (media) => {
        if (!headOnly) started = { id, caller, format, title: media.details.title, ip, ...platformOfMedia(link, media) };
      },
      // a chapter ZIP's files, as a bulk ZIP's are told (docs/decisions/070)
      onFiles: (files) => progress.setFiles(id, files),
    });
    if (controller.signal.aborted) {
      out.teardown();
      throw new EngineError("download.failed", { detail: "client left before the first byte" });
    }
    const span = outputSpan(out);
    try {
      if (kind === "resume" && out.status === 200) {
        // The range was not honoured (a file made while it streams): the whole file goes out,
        // so this is a full download after all.
        kind = "full";
        await linkUsage.admit(id, kind, expiresAtMs, issuedAtMs);
        if (!headOnly && fairUse) await slots.countFairUse(ip);
      }
      await linkUsage.setSize(id, span.total);
      // the first resume of a link learns the file's size only now
      if (kind === "resume") await linkUsage.admit(id, kind, expiresAtMs, issuedAtMs);
    } catch (err) {
      out.teardown();
      throw err;
    }
    res.off("close", onEarlyClose);
    // what became of the link's SponsorBlock option: applied, none, or unavailable (the file is whole)
    if (sponsorBlock) res.setHeader("X-SponsorBlock", sponsorBlock);
    progress.start(id, span.total, span.offset);
    const releaseSlots = slots.keep();
    const fullDownload = kind === "full" && !headOnly;
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
      beforeEnd: fullDownload ? () => linkUsage.complete(id).catch((err: unknown) => ctx.logger.warn({ download: id, err }, "could not record a completed link")) : undefined,
      onEnd: (state, err) => {
        releaseSlots();
        ctx.active.delete(controller);
        progress.finish(id, state, state === "failed" ? progressError(err) : undefined);
        if (finished) {
          const error = state === "failed" ? (isEngineError(err) ? err.code : "download.failed") : undefined;
          ctx.reportFinished({ ...finished, bytes: span.total ?? span.offset + sent, complete: state === "done" && span.reachesEnd, ...(error ? { error } : {}) });
        }
        if (state === "failed") ctx.logger.warn({ download: id, code: isEngineError(err) ? err.code : undefined, detail: redactUrls(err?.message) }, "download failed after headers; connection aborted");
        else ctx.logger.debug({ download: id, state }, "download ended");
      },
    });
  } catch (err) {
    // nothing was sent: the attempt does not count against fair use
    slots.giveBack();
    ctx.active.delete(controller);
    res.off("close", onEarlyClose);
    const closing = ctx.isClosing();
    const clientLeft = controller.signal.aborted;
    // Stopped by close() while the client still waits: it may retry against the next process.
    const stoppedByClose = closing && clientLeft && !res.destroyed;
    const e = stoppedByClose ? shuttingDown() : isEngineError(err) ? err : new EngineError("download.failed", { cause: err, detail: (err as Error)?.message });
    if (claimsId) {
      progress.finish(claimsId, clientLeft ? "aborted" : "failed", clientLeft ? undefined : progressError(e));
      // a download that failed or was left before its readers opened: nothing of it is fetched on
      ctx.prefetch.release(claimsId);
    }
    // work had begun (resolve, upstream, ffmpeg) and failed: the user saw a failed download
    if (started) ctx.reportFinished({ ...started, bytes: null, complete: false, ...(clientLeft ? {} : { error: e.code }) });
    logFailure(ctx.logger, e, { id: claimsId, closing, clientLeft });
    if (res.headersSent) {
      res.destroy(e);
    } else if (!res.destroyed && (!clientLeft || stoppedByClose)) {
      writeError(res, e);
    }
  }
}
