import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Logger } from "pino";
import { z } from "zod";
import type { AccountServices } from "#app/modules/account/account-services.server.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";
import { JobError } from "#app/modules/jobs/job-messages.ts";
import { callerOfOwner, jobView, type JobOwner, type ScheduledJobs } from "#app/modules/jobs/scheduled-jobs.server.ts";
import type { Database } from "#db/client.ts";
import { EngineError } from "#engine/errors.ts";
import { mediaOptionsShape, parseMediaOptions } from "#engine/media/options/media-options.ts";
import { checkSubtitles } from "#engine/captions/plan-subtitles.ts";
import { isFormatId } from "#engine/formats.ts";
import { catalogueRefusals } from "./api-errors.ts";
import { contentDisposition } from "#engine/serve/stream-to-response.ts";
import { keyHolderOf, whiteLabelled } from "./api-key-auth.ts";
import type { Profiles } from "#app/modules/profiles/profiles.server.ts";

/**
 * Scheduled downloads over HTTP (DESIGN §5, issue 30 §2), mounted at /api/v1/jobs: thin routes
 * over app/modules/jobs. The caller is the session's user; another user's job is a 404. A
 * finished job's file is served to the link its owner was given (signed, expiring).
 */
const runAt = z.string().max(64).datetime({ offset: true });
/** one link or a playlist link (`url`), or several links in one ZIP (`urls`, a bulk job) */
/** `profile`: a download profile's id (Ultimate) giving the format (and a scheduled download's language and file name) */
const createBody = z
  .union([
    z.object({ url: z.string().min(1).max(4096), format: z.string().max(64).optional(), runAt: runAt.optional(), profile: z.string().min(1).max(64).optional(), ...mediaOptionsShape }).strict(),
    z
      .object({
        urls: z.array(z.string().max(4096)).max(1000),
        format: z.string().max(64).optional(),
        runAt: runAt.optional(),
        name: z.string().max(200).optional(),
        profile: z.string().min(1).max(64).optional(),
        ...mediaOptionsShape,
      })
      .strict(),
  ])
  .refine((b) => b.format !== undefined || b.profile !== undefined, { message: "format or profile" });
const patchBody = z.object({ runAt });

export interface JobFileLinks {
  /** the owner's absolute, signed link to a finished job's file */
  fileLink(job: { jobId: string; userId: string; expiresAt: Date }): string;
  verifyFileLink(token: string): { jobId: string; userId: string } | null;
}

export interface JobFiles {
  open(key: string, range?: { start: number; end: number }): Promise<{ stream: Readable; bytes: number; totalBytes: number; contentType: string; filename: string } | null>;
}

/** 50 links of the longest kind fit (a bulk job's body) */
const JSON_LIMIT_BYTES = 256 * 1024;
/** "bytes=0-99", "bytes=100-": one range (a player seeking, a resumed download) */
const RANGE = /^bytes=(\d{1,15})-(\d{1,15})?$/;

export function createJobsRouter(deps: {
  db: Database;
  accounts: AccountServices;
  logger: Logger;
  jobs: ScheduledJobs;
  files: JobFiles;
  links: JobFileLinks;
  /** download profiles (issue 31 §2); none: `profile` is refused */
  profiles?: Pick<Profiles, "resolveProfile">;
  now?: () => Date;
}): Router {
  const now = deps.now ?? (() => new Date());
  const profileOf = async (who: JobOwner, id: string): Promise<{ format?: string; language?: string; filenameTemplate?: string }> => {
    if (!deps.profiles) throw new JobError("job.invalid_format", "This server has no download profiles.");
    return deps.profiles.resolveProfile(who, id);
  };
  const router = express.Router();
  router.use(express.json({ limit: JSON_LIMIT_BYTES }));

  async function owner(req: Request): Promise<JobOwner> {
    // a request made with an API key is its owner's (api-key-auth.ts verified it)
    const holder = keyHolderOf(req);
    if (holder) return { userId: holder.userId, plan: holder.plan };
    const viewer = await viewerFromCookie(deps, req.headers.cookie);
    if (!viewer) throw new JobError("job.login_required");
    return { userId: viewer.user.id, plan: viewer.plan.plan };
  }
  const parse = <T>(schema: z.ZodType<T>, value: unknown): T => {
    const result = schema.safeParse(value);
    if (!result.success) {
      const first = result.error.issues[0];
      if (first?.path[0] === "runAt") throw new JobError("job.invalid_run_at");
      throw Object.assign(new Error("invalid body"), { requestInvalid: result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") });
    }
    return result.data;
  };
  const view = (row: Parameters<typeof jobView>[0]) => {
    const at = now();
    const link = row.status === "done" && row.expiresAt ? deps.links.fileLink({ jobId: row.id, userId: row.userId, expiresAt: row.expiresAt }) : null;
    return jobView(row, at, link);
  };

  router.post("/", async (req, res) => {
    const who = await owner(req);
    // a bad time is named as such, whichever shape the rest of the body has
    const given = (req.body as { runAt?: unknown } | null)?.runAt;
    if (given !== undefined && !runAt.safeParse(given).success) throw new JobError("job.invalid_run_at");
    const body = parse(createBody, req.body);
    const when = body.runAt ? new Date(body.runAt) : undefined;
    const saved = body.profile !== undefined ? await profileOf(who, body.profile) : {};
    const chosen = {
      format: body.format ?? saved.format ?? "",
      runAt: when,
      language: saved.language,
      filenameTemplate: saved.filenameTemplate,
      whiteLabel: whiteLabelled(req),
      // the media options the download API takes (tags, clip…), kept on the job's row for its run
      options: parseMediaOptions(body),
    };
    // a split by chapter is of one video (docs/decisions/070): a ZIP of several links is never split
    if (chosen.options.chapters === "split" && "urls" in body) {
      throw new EngineError("request.invalid", { message: "Only a single video can be split by chapter: download the videos one at a time.", detail: "chapters split with several links" });
    }
    // subtitles into the video (docs/decisions/069): a format that carries them and the plan's right, as a download link is checked; their language, and a burn this server cannot draw, when the job runs
    if (isFormatId(chosen.format)) checkSubtitles(callerOfOwner(who), chosen.format, chosen.options, true);
    const row = await deps.jobs.create(who, "urls" in body ? { urls: body.urls, name: body.name, ...chosen } : { url: body.url, ...chosen });
    const shown = view(row);
    res.status(201).set("cache-control", "no-store").json({ id: shown.id, status: shown.status, runAt: shown.runAt });
  });

  router.get("/", async (req, res) => {
    const who = await owner(req);
    const rows = await deps.jobs.list(who);
    res.set("cache-control", "no-store").json({ jobs: rows.map(view) });
  });

  // the owner's signed link: no session needed (it was mailed), the signature and expiry decide
  router.get("/:id/file", async (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token : "";
    const claim = deps.links.verifyFileLink(token);
    if (!claim || claim.jobId !== req.params.id) throw new JobError("job.link_invalid");
    const row = await deps.jobs.get({ userId: claim.userId, plan: "free" }, claim.jobId).catch(() => null);
    if (!row || !row.fileKey || !row.expiresAt || row.expiresAt.getTime() <= now().getTime()) throw new JobError("job.file_gone");
    const wanted = RANGE.exec(String(req.headers.range ?? ""));
    let file: Awaited<ReturnType<JobFiles["open"]>>;
    try {
      file = await deps.files.open(row.fileKey, wanted ? { start: Number(wanted[1]), end: wanted[2] ? Number(wanted[2]) : Number.MAX_SAFE_INTEGER } : undefined);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      const whole = await deps.files.open(row.fileKey);
      whole?.stream.destroy();
      res.status(416).set("content-range", `bytes */${whole?.totalBytes ?? 0}`).end();
      return;
    }
    if (!file) throw new JobError("job.file_gone");
    const headers: Record<string, string> = {
      "content-type": file.contentType,
      "content-length": String(file.bytes),
      "content-disposition": contentDisposition(file.filename),
      "accept-ranges": "bytes",
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    };
    if (wanted) {
      const start = Number(wanted[1]);
      headers["content-range"] = `bytes ${start}-${start + file.bytes - 1}/${file.totalBytes}`;
    }
    res.writeHead(wanted ? 206 : 200, headers);
    if (req.method === "HEAD") {
      file.stream.destroy();
      res.end();
      return;
    }
    try {
      await pipeline(file.stream, res);
    } catch (err) {
      // the client left, or the store failed mid-file: the connection is cut, never ended cleanly
      if (!res.destroyed) res.destroy(err as Error);
    }
  });

  router.get("/:id", async (req, res) => {
    const who = await owner(req);
    res.set("cache-control", "no-store").json(view(await deps.jobs.get(who, String(req.params.id))));
  });

  router.patch("/:id", async (req, res) => {
    const who = await owner(req);
    const body = parse(patchBody, req.body);
    res.set("cache-control", "no-store").json(view(await deps.jobs.reschedule(who, String(req.params.id), new Date(body.runAt))));
  });

  router.delete("/:id", async (req, res) => {
    const who = await owner(req);
    res.set("cache-control", "no-store").json(view(await deps.jobs.cancel(who, String(req.params.id))));
  });

  // job.* and profile.* refusals, the engine's (plan.required naming the plans, a premium format), body-parser's
  router.use(catalogueRefusals());
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    const invalid = (err as { requestInvalid?: string } | null)?.requestInvalid;
    if (invalid) {
      deps.logger.debug({ detail: invalid }, "jobs: invalid body");
      res.status(400).set("cache-control", "no-store").json({ error: { code: "request.invalid", message: "The request is not valid." } });
      return;
    }
    next(err);
  });

  return router;
}

