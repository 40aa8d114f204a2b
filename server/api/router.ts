import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import type { Logger } from "pino";
import { z } from "zod";
import type { Engine } from "#engine/index.ts";
import type { Caller } from "#engine/types.ts";
import { EngineError, errorBody, isEngineError } from "#engine/errors.ts";
import { hostErrorOf, refuse } from "../http-errors.ts";
import { loggableUrl } from "../loggable-url.ts";
import { anonymousCaller, clientIp, type CallerResolver } from "./caller.ts";
import { whiteLabelled } from "./api-key-auth.ts";
import { openApiDocument } from "./openapi.ts";
import { CatalogueError } from "#common/error-catalogue.ts";
import { mediaOptionsShape, parseMediaOptions } from "#engine/media/options/media-options.ts";

/**
 * The public HTTP API v1 (DESIGN §5), mounted by the host at /api/v1. Thin routes: parse with
 * zod, call one engine function, answer. Errors are `{"error":{"code","message"}}` with the
 * catalogue's status and wording.
 */
const linkBody = z.object({ url: z.string().max(4096) });
/** `language`: a subtitle language for srt, vtt or transcript (Pro, Ultimate; issue 31 §3) */
/** `profile`: a custom download profile's id (Ultimate): its format, language and file-name template */
const downloadBody = z
  .object({ url: z.string().max(4096), format: z.string().max(64).optional(), language: z.string().min(1).max(35).optional(), profile: z.string().min(1).max(64).optional() })
  .refine((b) => b.format !== undefined || b.profile !== undefined, { message: "format or profile" });
/** a bulk download (issue 30 §3): the plan's limit on the number of links is the engine's to check */
/** `name`: the archive's name (a playlist's title); made safe for a file name by the engine */
const bulkDownloadBody = z
  .object({ urls: z.array(z.string().max(4096)).max(1000), format: z.string().max(64).optional(), name: z.string().max(200).optional(), profile: z.string().min(1).max(64).optional(), ...mediaOptionsShape })
  .strict()
  .refine((b) => b.format !== undefined || b.profile !== undefined, { message: "format or profile" });
const downloadQuery = z.object({ url: z.string().max(4096), format: z.string().max(64), language: z.string().min(1).max(35).optional() });
/** `t`: a clip time, seconds or h:mm:ss (checked by the engine) */
const frameQuery = z.object({ url: z.string().max(4096), t: z.string().min(1).max(16) });
/** seconds a browser may keep a frame: the picker asks again for a start it showed a moment ago */
const FRAME_MAX_AGE_SECONDS = 300;

const JSON_LIMIT_BYTES = 16 * 1024;

/**
 * Aborted when the client goes away before its answer is sent: the resolve it waits for stops
 * once nobody else waits for it either (a yt-dlp run is killed; issue 27, finding 5).
 */
function leaving(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** SSE keep-alive: proxies drop idle connections after 30–60 s. */
const HEARTBEAT_MS = 15_000;

export function createApiRouter(deps: {
  engine: Engine;
  logger: Logger;
  publicUrl?: string;
  identify?: CallerResolver;
  /** the per-IP limit of requests that resolve a link (resolve-limit.ts); none = unlimited */
  resolveLimit?: RequestHandler;
  /** the per-IP limit of preview frames, a budget of their own (resolve-limit.ts); none = unlimited */
  frameLimit?: RequestHandler;
  /** a custom download profile of the caller's (issue 31 §2); none: `profile` is refused */
  resolveProfile?: (caller: Caller, id: string) => Promise<{ format: string; language?: string; filenameTemplate?: string }>;
}): Router {
  const { engine, logger } = deps;
  const resolveLimit: RequestHandler = deps.resolveLimit ?? ((_req, _res, next) => next());
  const frameLimit: RequestHandler = deps.frameLimit ?? ((_req, _res, next) => next());
  const callerFromRequest = deps.identify ?? anonymousCaller;
  const profileOf = async (caller: Caller, id: string): Promise<{ format?: string; language?: string; filenameTemplate?: string }> => {
    if (!deps.resolveProfile) throw new EngineError("request.invalid", { message: "This server has no download profiles.", detail: "profiles" });
    return deps.resolveProfile(caller, id);
  };
  const router = express.Router();
  // refused on its declared length, before a byte is read (the parser would wait for all of it)
  router.use((req, res, next) => {
    if (Number(req.headers["content-length"] ?? 0) > JSON_LIMIT_BYTES) refuse(req, res, "request.too_large", { discardUpload: true });
    else next();
  });
  router.use(express.json({ limit: JSON_LIMIT_BYTES }));

  const parse = <T>(schema: z.ZodType<T>, value: unknown): T => {
    const result = schema.safeParse(value);
    if (!result.success) {
      throw new EngineError("request.invalid", { detail: result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") });
    }
    return result.data;
  };

  router.post("/resolve", resolveLimit, async (req, res) => {
    const { url } = parse(linkBody, req.body);
    // a playlist link answers its entries (issue 30 §3); a video link the video as always
    const result = await engine.resolveLink(url, await callerFromRequest(req), { signal: leaving(res), ip: clientIp(req) });
    res.set("cache-control", "no-store").json(result);
  });

  router.post("/downloads", resolveLimit, async (req, res) => {
    if (typeof req.body === "object" && req.body !== null && "urls" in req.body) {
      const { urls, format, name, profile } = parse(bulkDownloadBody, req.body);
      const options = parseMediaOptions(req.body);
      const caller = await callerFromRequest(req);
      // a profile gives every file its format (unless given), subtitle language and file name
      const saved = profile !== undefined ? await profileOf(caller, profile) : {};
      const created = await engine.createBulkDownload({
        urls,
        format: format ?? saved.format ?? "",
        name,
        language: saved.language,
        filenameTemplate: saved.filenameTemplate,
        options,
        unbranded: whiteLabelled(req),
        caller,
        ip: clientIp(req),
      });
      res.set("cache-control", "no-store").json(created);
      return;
    }
    const body = parse(downloadBody, req.body);
    // the media options (issue 33 §7), checked before anything is resolved
    const options = parseMediaOptions(req.body);
    const caller = await callerFromRequest(req);
    // a profile gives the format, language and file name a request leaves out
    const saved = body.profile !== undefined ? await profileOf(caller, body.profile) : {};
    const format = body.format ?? saved.format ?? "";
    const language = body.language ?? saved.language;
    const created = await engine.createDownload({ url: body.url, format, language, filenameTemplate: saved.filenameTemplate, options, caller, ip: clientIp(req), signal: leaving(res) });
    res.set("cache-control", "no-store").json(created);
  });

  router.get("/download", resolveLimit, async (req, res) => {
    const { url, format, language } = parse(downloadQuery, req.query);
    const options = parseMediaOptions(req.query);
    const created = await engine.createDownload({ url, format, language, options, caller: await callerFromRequest(req), ip: clientIp(req), signal: leaving(res) });
    res.set("cache-control", "no-store").redirect(302, created.downloadUrl);
  });

  // a clip's first frame for the picker (issue 33 §1): a small JPEG, the same for every caller
  router.get("/frame", frameLimit, async (req, res) => {
    const { url, t } = parse(frameQuery, req.query);
    const image = await engine.frame(url, t, { signal: leaving(res), ip: clientIp(req) });
    res.set({ "content-type": "image/jpeg", "cache-control": `private, max-age=${FRAME_MAX_AGE_SECONDS}`, "x-content-type-options": "nosniff" }).send(image);
  });

  router.get("/dl/:token", async (req, res) => {
    await engine.handleDownload(String(req.params.token), req, res, { ip: clientIp(req) });
  });

  router.get("/downloads/:id/progress", async (req, res) => {
    const id = String(req.params.id);
    let closed = false;
    let unsubscribe: (() => void) | null = null;
    let heartbeat: NodeJS.Timeout | null = null;
    const close = () => {
      if (closed) return;
      closed = true;
      if (heartbeat) clearInterval(heartbeat);
      unsubscribe?.();
      res.end();
    };
    const initial: Array<Parameters<Parameters<Engine["subscribeProgress"]>[1]>[0]> = [];
    let ready = false;
    const send = (p: (typeof initial)[number]) => {
      if (!ready) {
        initial.push(p);
        return;
      }
      if (closed) return;
      // a ZIP's files and a failure's code and words ride along (docs/api.md); nothing else of the store's record leaves
      const event = { bytes: p.bytes, total: p.total, state: p.state, ...(p.files ? { files: p.files } : {}), ...(p.state === "failed" && p.error ? { error: { code: p.error.code, message: p.error.message } } : {}) };
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      if (p.state === "done" || p.state === "failed" || p.state === "aborted") close();
    };
    // Rejects with download.not_found before any header is written: a plain JSON 404.
    unsubscribe = await engine.subscribeProgress(id, send);
    if (req.destroyed) {
      close();
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
      connection: "keep-alive",
    });
    res.write("retry: 2000\n\n");
    ready = true;
    heartbeat = setInterval(() => {
      if (!closed) res.write(": heartbeat\n\n");
    }, HEARTBEAT_MS);
    heartbeat.unref();
    req.on("close", close);
    for (const p of initial) send(p);
  });

  router.get("/openapi.json", (req, res) => {
    const origin = deps.publicUrl ?? `${req.protocol}://${req.get("host") ?? "localhost"}`;
    res.json(openApiDocument(origin));
  });

  router.use((_req: Request, _res: Response, next: NextFunction) => {
    next(new EngineError("request.invalid", { message: "Unknown API route.", detail: "no such route" }));
  });

  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (res.destroyed) {
      // the client left while its link was resolved: nobody reads an answer, and it is no fault
      logger.debug({ code: isEngineError(err) ? err.code : undefined, path: loggableUrl(req.originalUrl) }, "api request left by its client");
      return;
    }
    // a catalogue refusal of another domain (a profile that is not the caller's): its own code and words
    if (err instanceof CatalogueError && !isEngineError(err) && err.status < 500) {
      res.status(err.status).set("cache-control", "no-store").json({ error: { code: err.code, message: err.message } });
      return;
    }
    // body-parser and path-decoding refusals (bad JSON, too large, charset, encoding, %ZZ)
    const refusal = isEngineError(err) ? null : hostErrorOf(err);
    if (refusal) {
      // an unread oversized upload would keep streaming into this connection
      refuse(req, res, refusal, { discardUpload: refusal === "request.too_large" || refusal === "request.unsupported_type" });
      return;
    }
    let e: EngineError;
    if (isEngineError(err)) e = err;
    else e = new EngineError("internal", { cause: err, detail: (err as Error)?.message });
    const path = loggableUrl(req.originalUrl);
    if (e.status >= 500) logger.error({ err: e.cause ?? e, code: e.code, detail: e.detail, path }, "api error");
    else logger.debug({ code: e.code, detail: e.detail, path }, "api refused");
    if (e.retryAfter !== undefined) res.set("retry-after", String(e.retryAfter));
    if (e.code === "request.invalid" && e.detail === "no such route") res.status(404);
    else res.status(e.status);
    res.set("cache-control", "no-store").json(errorBody(e));
  });

  return router;
}
