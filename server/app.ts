import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import express, { type Express, type Request, type Response } from "express";
import { rateLimit, type Store } from "express-rate-limit";
import { toNodeHandler } from "better-auth/node";
import { pinoHttp } from "pino-http";
import type { ServerBuild } from "react-router";
import type { AppServices } from "#app/lib/load-context.ts";
import type { PlatformHealthStore } from "#app/modules/platform-health/health-store.server.ts";
import { createBillingRouter, STRIPE_WEBHOOK_PATH } from "#server/api/billing.ts";
import { createCallerResolver } from "#server/api/caller.ts";
import { createResolveLimiter } from "#server/api/resolve-limit.ts";
import { createJobsRouter, type JobFiles } from "#server/api/jobs.ts";
import { createApiRouter } from "#server/api/router.ts";
import { createStatusRouter } from "#server/api/status.ts";
import { mountApiKeys } from "#server/api/keys.ts";
import { createProfilesRouter, profileResolver } from "#server/api/profiles.ts";
import { createProfiles } from "#app/modules/profiles/profiles.server.ts";
import { TOO_MANY_REQUESTS } from "#common/error-catalogue.ts";
import type { DatabaseHandle } from "#db/client.ts";
import { ERRORS, type EngineErrorCode } from "#engine/errors.ts";
import { authGate } from "./auth-gate.ts";
import type { AppConfig } from "./config.ts";
import { hostErrorOf, refuse } from "./http-errors.ts";
import { loggableUrl } from "./loggable-url.ts";
import { answerFromPageCache, createPageCache, type PageCache, type TrustProxy } from "./page-cache.ts";
import { createPageHandler } from "./page-handler.ts";
import { personalResponseHeaders } from "./personal-responses.ts";
import { crossSiteGuard, hostGuard, originFormTarget, pageBodyGuard, pageMethodGuard, urlGuard } from "./request-guards.ts";
import { contentSecurityPolicy, cspHeaderName, securityHeaderList, securityHeaders } from "./security.ts";
import { staticFileHeaders } from "./service-worker.ts";
import { trustProxySetting } from "./trust-proxy.ts";

const INTERNAL_ERROR_MESSAGE = ERRORS.internal.message;
export const RATE_LIMIT_MESSAGE = TOO_MANY_REQUESTS;

export interface AppDeps extends AppServices<AppConfig> {
  database: DatabaseHandle;
  /** the host map in effect (OUTBOUND_HOST_MAP plus the mock platform's), for the CSP */
  hostMap?: string;
  /** finished jobs' files, served to their owners' signed links (jobs/storage); absent without a job queue */
  jobFiles?: JobFiles;
  /** each platform's recent outcomes (GET /api/v1/status); absent in tests that do not need it */
  platformHealth?: PlatformHealthStore;
  /** a shared store for the express-rate-limit limiter `name` (REDIS_URL); undefined = in-process */
  rateLimitStore?: (name: string) => Store | undefined;
  /** production: the built server bundle and its client folder; dev: Vite supplies both */
  build:
    | { mode: "production"; serverBuild: ServerBuild; clientDir: string }
    | { mode: "development"; load: () => Promise<ServerBuild>; middleware: express.RequestHandler };
}

/** Paths whose bodies must never be compressed or buffered: media bytes and event streams. */
function isStreamingPath(p: string) {
  return p.startsWith("/api/v1/dl/") || /^\/api\/v1\/downloads\/[^/]+\/progress$/.test(p) || /^\/api\/v1\/jobs\/[^/]+\/file$/.test(p);
}

/**
 * Is this response a stream that a compressor would hold back? Decided when the headers go out,
 * inside whatever router answers: by then a mounted router has cut its prefix off `req.url` (and
 * `req.path`), so the full path comes from `originalUrl`; an event stream is never compressed
 * whichever route sends it (a compressor buffers events until the stream ends).
 */
function isStreamingResponse(req: Request, res: Response): boolean {
  if (/^text\/event-stream\b/i.test(String(res.getHeader("content-type") ?? ""))) return true;
  const target = req.originalUrl;
  const q = target.indexOf("?");
  return isStreamingPath(q === -1 ? target : target.slice(0, q));
}

export function createApp(deps: AppDeps): Express {
  const { config, logger } = deps;
  const app = express();
  app.disable("x-powered-by");
  // X-Forwarded-For counts only from a proxy's own network (trust-proxy.ts)
  const trustProxy = trustProxySetting(config.TRUST_PROXY);
  if (trustProxy) app.set("trust proxy", trustProxy);

  app.use(originFormTarget());
  app.use(
    pinoHttp({
      logger,
      customLogLevel: (req, res, err) => {
        if (err || res.statusCode >= 500) return "error";
        if (res.statusCode >= 400) return "warn";
        return req.url?.startsWith("/assets/") ? "debug" : "info";
      },
      serializers: {
        // never a signed download token or what a visitor typed (see loggable-url.ts)
        req: (req: { method: string; url: string }) => ({ method: req.method, url: loggableUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(
    compression({
      filter: (req, res) => !isStreamingResponse(req as Request, res as Response) && compression.filter(req, res),
    }),
  );
  const https = config.PUBLIC_URL.startsWith("https://");
  const cspOptions = { dev: deps.build.mode === "development", https, hostMap: deps.hostMap };
  app.use(securityHeaders(config, cspOptions));

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const checks: Record<string, string> = {};
    let ok = true;
    try {
      await deps.database.ping();
      checks.database = "ok";
    } catch (err) {
      ok = false;
      checks.database = "unreachable";
      logger.warn({ err }, "readiness: database ping failed");
    }
    // the ffmpeg version is logged at start, never shown to the public
    const tools = deps.engine.mediaTools;
    checks.ffmpeg = tools ? "ok" : "missing";
    if (!tools) ok = false;
    res.status(ok ? 200 : 503).json({ status: ok ? "ready" : "not ready", checks });
  });

  app.use(hostGuard(), urlGuard(), crossSiteGuard(config.PUBLIC_URL));

  // Anonymous pages rendered in the last minute are answered from memory (docs/decisions/018).
  // Development renders every time: its sources change under it.
  // A hit is answered before Express runs at all (see answerCachedPagesFirst below).
  const pageCache = !cspOptions.dev && config.PAGE_CACHE_MB > 0 ? createPageCache({ maxBytes: config.PAGE_CACHE_MB * 1024 * 1024 }) : null;

  // Per-IP limit on every POST (forms, API). Downloads have their own fair-use limits in the engine.
  const postLimiter = rateLimit({
    windowMs: 60_000,
    limit: config.POST_RATE_LIMIT_PER_MINUTE,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: deps.rateLimitStore?.("post"),
    // a shared store that fails (Redis down) lets requests through rather than failing every form
    passOnStoreError: true,
    // Stripe's webhook deliveries come in bursts from a few addresses and are signed; a 429
    // would only delay a subscription update until Stripe retries.
    skip: (req) => req.path === STRIPE_WEBHOOK_PATH,
    handler: (req: Request, res: Response, _next, options) => {
      res.setHeader("Retry-After", String(Math.ceil(options.windowMs / 1000)));
      if (req.path.startsWith("/api/") || req.accepts(["html", "json"]) === "json") {
        res.status(429).json({ error: { code: "download.rate_limited" satisfies EngineErrorCode, message: RATE_LIMIT_MESSAGE } });
      } else {
        res.status(429).type("text/plain").send(RATE_LIMIT_MESSAGE);
      }
    },
  });
  // reads and page views never reach the limiter (its checks are asynchronous: a cost per page)
  app.use((req, res, next) => (req.method === "POST" ? postLimiter(req, res, next) : next()));

  // what is rendered for a session stays private, and a sign-out clears the browser's cache
  app.use(personalResponseHeaders());

  // better-auth reads its own body: mounted before any body parser, behind an allow-list and a
  // body limit (auth-gate.ts). Its session endpoints (get-session, sign-out) and the verify-email
  // link answer here; credential entry, password reset and profile changes go through our form
  // actions, where the limiters sit.
  app.all("/api/auth/{*splat}", authGate(toNodeHandler(deps.accounts.auth)));

  // API keys (issue 31 §1): a key is the caller of /api/v1 (its own routes excepted, which take a
  // session only, as every other /api route does)
  mountApiKeys(app, { db: deps.db, accounts: deps.accounts, logger, store: deps.rateLimitStore?.("api-key") });

  // Checkout, verification and the Stripe webhook (which reads its raw body itself).
  app.use("/api", createBillingRouter({ db: deps.db, logger, billing: deps.billing, accounts: deps.accounts }));

  // the caller (account and plan) comes from the session cookie
  const identify = createCallerResolver({ accounts: deps.accounts, db: deps.db, logger });
  const resolveLimit = createResolveLimiter({ perMinute: config.RESOLVE_RATE_LIMIT_PER_MINUTE, store: deps.rateLimitStore?.("resolve") });
  // a clip's preview frames (GET /api/v1/frame): as many, counted apart, so previews never spend a download's budget
  const frameLimit = createResolveLimiter({ perMinute: config.RESOLVE_RATE_LIMIT_PER_MINUTE, store: deps.rateLimitStore?.("frame"), what: "frame limit per IP" });
  // download profiles (issue 31 §2): their routes, `profile` on POST /downloads and on jobs
  const profiles = createProfiles({ db: deps.db });
  // scheduled downloads (the session's user), before the API's catch-all
  if (deps.jobs && deps.jobFiles) {
    app.use("/api/v1/jobs", createJobsRouter({ db: deps.db, accounts: deps.accounts, logger, jobs: deps.jobs.scheduled, files: deps.jobFiles, links: deps.jobs, profiles }));
  }
  // custom download profiles (the caller's account, by session or key), and `profile` on POST /downloads
  app.use("/api/v1/profiles", createProfilesRouter({ profiles, identify, logger }));
  // each platform's live status (issue 32 §5), from the health record the engine and the canary feed
  if (deps.platformHealth) app.use("/api/v1", createStatusRouter({ store: deps.platformHealth, ytdlp: () => deps.engine.ytdlp !== null }));
  app.use("/api/v1", createApiRouter({ engine: deps.engine, logger, publicUrl: config.PUBLIC_URL, identify, resolveLimit, frameLimit, resolveProfile: profileResolver(profiles) }));

  if (deps.build.mode === "production") {
    const clientDir = deps.build.clientDir;
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    // redirect: false, or /blog would be redirected to /blog/ because public/blog/ (article covers) is a folder
    const publicFiles = express.static(clientDir, { maxAge: "1h", index: false, redirect: false, setHeaders: staticFileHeaders });
    // every public file has an extension; a page's path (`/faq`, `/blog/x`) is not looked up on disk
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  } else {
    app.use(deps.build.middleware);
  }

  app.use(pageMethodGuard(), pageBodyGuard());
  const build = deps.build;
  app.all(
    "/{*splat}",
    createPageHandler({
      build: build.mode === "production" ? build.serverBuild : build.load,
      mode: build.mode,
      policy: {
        csp: (hashes) => contentSecurityPolicy(config, hashes, cspOptions),
        cspHeader: cspHeaderName(cspOptions.dev),
        cache: pageCache,
      },
      getLoadContext: (req, res) => ({
        config: deps.config,
        publicConfig: deps.publicConfig,
        db: deps.db,
        logger: deps.logger,
        engine: deps.engine,
        ytdlpExtractors: deps.ytdlpExtractors,
        platformNotices: deps.platformNotices,
        accounts: deps.accounts,
        billing: deps.billing,
        blogLimiter: deps.blogLimiter,
        mailer: deps.mailer,
        jobs: deps.jobs,
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        // account mail and signups start once the answer is out (its timing then tells nothing)
        afterAnswer: (start) => void (res.writableFinished || res.destroyed ? start() : res.once("close", start)),
        forgetPage: (pathname) => pageCache?.deletePath(pathname),
      }),
    }),
  );

  // The last word on any error: a client's mistake keeps its 4xx; only our own failures are
  // 500, logged without the request's content.
  app.use((err: unknown, req: Request, res: Response, _next: express.NextFunction) => {
    const code = hostErrorOf(err);
    if (code) {
      refuse(req, res, code);
      return;
    }
    logger.error({ err, method: req.method, url: loggableUrl(req.originalUrl) }, "unhandled error");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(500).set("cache-control", "no-store").type("text/plain; charset=utf-8").send(INTERNAL_ERROR_MESSAGE);
  });

  if (pageCache) answerCachedPagesFirst(app, pageCache, securityHeaderList(config, cspOptions), logger);
  return app;
}

/**
 * Express (its request and response prototypes, router and a dozen middleware) costs about three
 * times what sending a cached page does. A cached anonymous page is therefore answered in the
 * app's own entry point, before any of it runs; everything else goes on to Express unchanged.
 * The access log line keeps pino-http's shape.
 */
function answerCachedPagesFirst(app: Express, cache: PageCache, securityHeadersFor: ReturnType<typeof securityHeaderList>, logger: AppDeps["logger"]) {
  const answer = answerFromPageCache(cache, {
    // read per request: a test or an operator may change "trust proxy" after the app is made
    trust: (address, hop) => (app.get("trust proxy fn") as TrustProxy)(address, hop),
    securityHeaders: securityHeadersFor,
    log: (req, status, startedAt) =>
      logger.info(
        { req: { method: req.method, url: loggableUrl(req.url ?? "") }, res: { statusCode: status }, responseTime: Math.round(performance.now() - startedAt) },
        "request completed",
      ),
  });
  const entry = app as Express & { handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void };
  const handle = entry.handle.bind(app);
  entry.handle = (req, res, next) => {
    if (!answer(req, res)) handle(req, res, next);
  };
}
