/**
 * Serving a bulk download's signed link (`GET /api/v1/dl/zip.…`, issue 30 §3 "Direct"): one ZIP
 * streamed as it is built (bulk-archive.ts), its files' states in the download's progress
 * events. The link is single-use like a single download's.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { canDownload, mayUse } from "../entitlements.ts";
import { EngineError, errorBody, isEngineError, redactUrls } from "../errors.ts";
import { isFormatId } from "../formats.ts";
import { planRequired, premiumRefusal } from "../refusals.ts";
import type { Caller, FormatId } from "../types.ts";
import { buildBulkArchive, bulkFilename } from "./bulk-archive.ts";
import { progressError, StreamSlots, type ServeContext } from "./serve-download.ts";
import { verifyBulk, type BulkClaims } from "./signed-links.ts";
import { contentDisposition } from "./stream-to-response.ts";

export { bulkFilename } from "./bulk-archive.ts";

function requestIp(req: IncomingMessage): string {
  const expressIp = (req as IncomingMessage & { ip?: unknown }).ip;
  return typeof expressIp === "string" && expressIp ? expressIp : (req.socket.remoteAddress ?? "unknown");
}

function writeError(res: ServerResponse, err: EngineError): void {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
  if (err.retryAfter !== undefined) headers["retry-after"] = String(err.retryAfter);
  res.writeHead(err.status, headers);
  res.end(JSON.stringify(errorBody(err)));
}

/** the refusals a bulk link meets again when it is opened (the plan table may have changed) */
export function checkEntitled(caller: Caller, format: string): FormatId {
  if (!isFormatId(format)) throw new EngineError("download.link_invalid");
  if (!mayUse(caller, "bulkDownloads")) throw planRequired(caller, "bulkDownloads");
  if (!canDownload(caller, format)) throw premiumRefusal(caller);
  return format;
}

export async function serveBulk(ctx: ServeContext, token: string, req: IncomingMessage, res: ServerResponse, opts: { ip?: string } = {}): Promise<void> {
  const { progress, linkUsage, admission } = ctx.state;
  const slots = new StreamSlots(admission);
  const controller = new AbortController();
  let id: string | null = null;
  let claims: BulkClaims;
  try {
    if (ctx.isClosing()) throw new EngineError("download.busy", { retryAfter: 5, detail: "the engine is closing" });
    claims = verifyBulk(ctx.config.signingSecret, token, ctx.now());
    id = claims.id;
    const caller: Caller = { kind: claims.caller, plan: claims.plan, userId: claims.userId };
    checkEntitled(caller, claims.format);
    const expiresAtMs = claims.exp * 1000;
    // A ZIP made while it streams cannot be resumed: every request is a full one.
    await linkUsage.admit(claims.id, "full", expiresAtMs, expiresAtMs - ctx.config.limits.linkTtlSeconds * 1000);
    await slots.take(opts.ip ?? requestIp(req), claims.id);
  } catch (err) {
    slots.giveBack();
    const e = isEngineError(err) ? err : new EngineError("download.failed", { cause: err, detail: (err as Error)?.message });
    if (id) progress.finish(id, "failed", progressError(e));
    ctx.logger.info({ download: id ?? undefined, code: e.code, detail: redactUrls(e.detail) }, "bulk download refused");
    if (!res.destroyed) writeError(res, e);
    return;
  }
  const bulk = claims;
  const downloadId = bulk.id;
  const caller: Caller = { kind: bulk.caller, plan: bulk.plan, userId: bulk.userId };
  const format = bulk.format as FormatId;
  const releaseSlots = slots.keep();
  ctx.active.add(controller);
  const filename = bulkFilename(new Date(bulk.exp * 1000 - ctx.config.limits.linkTtlSeconds * 1000), bulk.name);
  res.writeHead(200, {
    "content-type": "application/zip",
    "content-disposition": contentDisposition(filename),
    "cache-control": "no-store",
    "x-accel-buffering": "no",
    "x-content-type-options": "nosniff",
  });
  if (req.method === "HEAD") {
    res.end();
    releaseSlots();
    ctx.active.delete(controller);
    return;
  }
  // the status goes now: the first entry's bytes wait for its link to resolve
  res.flushHeaders();

  progress.start(downloadId, null);
  let ended = false;
  const end = (state: "done" | "failed" | "aborted", err?: Error) => {
    if (ended) return;
    ended = true;
    controller.abort(err ?? new Error(`bulk download ${state}`));
    releaseSlots();
    ctx.active.delete(controller);
    progress.finish(downloadId, state, state === "failed" ? progressError(err) : undefined);
    if (state === "failed") ctx.logger.warn({ download: downloadId, detail: redactUrls(err?.message) }, "bulk download failed after headers; connection aborted");
    else ctx.logger.debug({ download: downloadId, state }, "bulk download ended");
  };
  // the engine's close() aborts the controller: the archive stops and the connection breaks
  controller.signal.addEventListener("abort", () => {
    if (!ended) {
      res.destroy(new Error("the engine is closing"));
      end("aborted");
    }
  });
  const archive = buildBulkArchive(ctx, {
    id: downloadId,
    urls: bulk.urls,
    format,
    language: bulk.language,
    filenameTemplate: bulk.template,
    options: bulk.options,
    caller,
    signal: controller.signal,
    now: () => new Date(ctx.now()),
    onFiles: (files) => progress.setFiles(downloadId, files),
    // the whole archive is about to be delivered: the link is used up, on every instance,
    // before the client sees the end and could ask again
    beforeEnd: () => linkUsage.complete(downloadId).catch((err: unknown) => ctx.logger.warn({ download: downloadId, err }, "could not record a completed link")),
  });
  archive.output.on("data", (chunk: Buffer) => {
    progress.addBytes(downloadId, chunk.length);
    linkUsage.addBytes(downloadId, chunk.length);
  });
  archive.output.once("error", (err) => {
    // headers are out: the only honest signal left is a broken connection
    if (!ended) res.destroy(err);
  });
  res.once("finish", () => end("done"));
  res.once("close", () => {
    if (!res.writableFinished) end("aborted");
  });
  archive.output.pipe(res);
  try {
    await archive.done;
  } catch (err) {
    if (!ended) {
      res.destroy(err as Error);
      end("failed", err as Error);
    }
  }
}
