import { createHmac, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { AccountServices } from "#app/modules/account/account-services.server.ts";
import { createAuth } from "#app/modules/account/auth.server.ts";
import { withInProcessFallback } from "#app/lib/attempt-limiter.server.ts";
import { settleBackgroundWork } from "#app/modules/account/background-work.server.ts";
import { createMailer, type Mailer } from "#app/modules/account/mailer.server.ts";
import { limitMailsPerAddress } from "#app/modules/account/per-address-mailer.server.ts";
import { createBillingServices, type BillingServices } from "#app/modules/billing/billing-services.server.ts";
import { startBlogFreshness } from "#app/modules/blog/freshness.server.ts";
import { startRetentionSweep } from "#app/modules/retention/retention-sweep.server.ts";
import { recordDownload } from "#app/modules/history/record-download.server.ts";
import { healthRecorder } from "#app/modules/platform-health/health-store.server.ts";
import { createPlatformNotices } from "#app/modules/platform-health/platform-notices.server.ts";
import { CANARY_CLIENT, canaryClientsOf, canaryLinksFor } from "#app/modules/platform-health/run-canary.server.ts";
import { createHealthCounts, type HealthCounts } from "#app/modules/platform-health/health-counts.server.ts";
import { createClientOrder, type ClientOrder } from "#app/modules/platform-health/client-order.server.ts";
import { openDatabase, type DatabaseHandle } from "#db/client.ts";
import type { EngineConfig } from "#engine/config.ts";
import { describeEgress, parseIpv6Cidr, parseOutboundProxies } from "#engine/outbound/egress.ts";
import { createEngine, type Engine } from "#engine/index.ts";
import { loadYtdlpExtractors, type YtdlpExtractors } from "#engine/sources/ytdlp/extractors.ts";
import { createJobRunner, jobDefinitions, type JobRunner } from "#jobs/index.ts";
import { createJobStorage, jobStorageOptionsFrom, type JobStorage } from "#jobs/storage/job-storage.ts";
import { signFileLink, verifyFileLink } from "#jobs/storage/file-links.ts";
import { createScheduledJobs, deleteExpiredJobFiles, JOB_FILE_TTL_MS, type ScheduledJobs } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { deleteJobFilesOf } from "#app/modules/jobs/job-files.server.ts";
import { publicConfig, type AppConfig } from "./config.ts";
import { collectWhenQuiet } from "./quiet-gc.ts";
import { logYtdlp } from "./ytdlp-start.ts";
import { createSharedState, type SharedState } from "./state/shared-state.ts";

export interface Services {
  config: AppConfig;
  logger: Logger;
  database: DatabaseHandle;
  engine: Engine;
  /** what the server's yt-dlp can read (`--list-extractors`, read after start) */
  ytdlpExtractors: YtdlpExtractors;
  accounts: AccountServices;
  /** SMTP or the outbox; contact messages and platform requests reach CONTACT_EMAIL through it */
  mailer: Mailer;
  /** Stripe, or null without payment keys */
  billing: BillingServices | null;
  /** OUTBOUND_HOST_MAP plus the mock platform's entries */
  hostMap?: string;
  /** stops the mock platform when MOCKS=true */
  mocks: { close(): Promise<void>; exampleLinks: string[] } | null;
  /** in-process, or Redis when REDIS_URL is set */
  shared: SharedState;
  /** notes that the server is busy: one full collection runs once it has been quiet a while (quiet-gc.ts) */
  noteActivity: () => void;
  /** background work on pg-boss, on the same database (jobs/runner.ts) */
  jobs: JobRunner;
  /** counts per platform, client, egress and failure type over the last day (the operators' table) */
  healthCounts: HealthCounts;
  /** YouTube's client order, adapted to the canary */
  clientOrder: ClientOrder;
  /** finished jobs' files (DATA_DIR/files or a bucket) */
  jobStorage: JobStorage;
  /** scheduled downloads, and the owner's signed links to their files */
  scheduledJobs: { scheduled: ScheduledJobs; fileLink(job: { jobId: string; userId: string; expiresAt: Date }): string; verifyFileLink(token: string): { jobId: string; userId: string } | null; deleteFilesOf(userId: string): Promise<number> };
  close(): Promise<void>;
}

/**
 * The download-link secret: from DOWNLOAD_SIGNING_SECRET, else generated once and kept in
 * DATA_DIR so links survive a restart on the embedded default.
 */
export async function loadSigningSecret(config: AppConfig): Promise<string> {
  return loadOrGenerateSecret(config, "DOWNLOAD_SIGNING_SECRET", "signing-secret", "sign download links");
}

/**
 * The session-signing secret: from AUTH_SECRET, else generated once into DATA_DIR, so sessions
 * survive a restart on the embedded default. Several instances must share one AUTH_SECRET.
 */
export async function loadAuthSecret(config: AppConfig): Promise<string> {
  return loadOrGenerateSecret(config, "AUTH_SECRET", "auth-secret", "sign sessions");
}

/** A secret that would be generated per instance while instances share state (REDIS_URL). */
export class SharedSecretMissing extends Error {}

async function loadOrGenerateSecret(config: AppConfig, variable: "AUTH_SECRET" | "DOWNLOAD_SIGNING_SECRET", name: string, purpose: string): Promise<string> {
  const configured = config[variable];
  if (configured) return configured;
  if (config.REDIS_URL) {
    // Several instances run (REDIS_URL is the multi-instance mode): a secret generated into each
    // one's DATA_DIR would make a link or a session from one instance invalid on the others.
    throw new SharedSecretMissing(
      `${variable} must be set when REDIS_URL is set: every instance must ${purpose} with the same secret. ` +
        `Set ${variable} to the same random value (e.g. \`openssl rand -hex 32\`) on every instance.`,
    );
  }
  const file = path.join(path.resolve(config.DATA_DIR), name);
  try {
    const existing = (await readFile(file, "utf8")).trim();
    if (existing.length >= 32) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  await writeFile(file, secret + "\n", { mode: 0o600 });
  return secret;
}

export function engineConfigFrom(config: AppConfig, logger: Logger, signingSecret: string, hostMap?: string): EngineConfig {
  return {
    dataDir: path.resolve(config.DATA_DIR),
    publicUrl: config.PUBLIC_URL,
    signingSecret,
    hostMap,
    allowPrivateSources: config.ALLOW_PRIVATE_SOURCES,
    egress: { proxies: config.OUTBOUND_PROXIES, ipv6Cidr: config.OUTBOUND_IPV6_CIDR },
    youtube: {
      clients: config.YOUTUBE_CLIENTS,
      apiKey: config.YOUTUBE_API_KEY,
      apiBaseUrl: config.YOUTUBE_API_BASE_URL,
      potProviderUrl: config.YOUTUBE_POT_PROVIDER_URL,
      sponsorBlockApiUrl: config.SPONSORBLOCK_API_URL,
    },
    ffmpegPath: config.FFMPEG_PATH,
    ffprobePath: config.FFPROBE_PATH,
    ytdlpPath: config.YTDLP_PATH,
    limits: {
      maxConcurrentDownloads: config.MAX_CONCURRENT_DOWNLOADS,
      downloadsPerIpPerHour: config.DOWNLOADS_PER_IP_PER_HOUR,
      maxConcurrentDownloadsPerIp: config.MAX_CONCURRENT_DOWNLOADS_PER_IP,
      segmentConcurrency: config.DOWNLOAD_SEGMENT_CONCURRENCY,
      chunkBytes: config.DOWNLOAD_CHUNK_BYTES,
      rangeConcurrency: config.DOWNLOAD_RANGE_CONCURRENCY,
      maxConnectionsPerHost: config.OUTBOUND_MAX_CONNECTIONS_PER_HOST,
      linkTtlSeconds: config.DOWNLOAD_LINK_TTL_SECONDS,
      resolveCacheSeconds: config.RESOLVE_CACHE_SECONDS,
      outboundTimeoutMs: config.OUTBOUND_TIMEOUT_MS,
    },
    logger: logger.child({ module: "engine" }),
  };
}

/** Open everything the server needs, in order; close() undoes it in reverse. */
/** `cHeapTrim`: glibc's malloc_trim when the production build has it (server/c-heap-trim.ts) */
export async function createServices(config: AppConfig, logger: Logger, opts: { cHeapTrim?: (() => void) | null } = {}): Promise<Services> {
  // first: a multi-instance setup without shared secrets stops here, before anything starts
  const signingSecret = await loadSigningSecret(config);
  const authSecret = await loadAuthSecret(config);
  const shared = await createSharedState({ redisUrl: config.REDIS_URL, prefix: config.REDIS_KEY_PREFIX, ipLimitScale: config.ACCOUNT_IP_LIMIT_SCALE, logger });
  let hostMap = config.OUTBOUND_HOST_MAP;
  let mocks: Services["mocks"] = null;
  if (config.MOCKS) {
    // Dev-only: the mock platform lives with the test mocks and is loaded only when asked for.
    const { startMockPlatform } = await import("#tests/mocks/platform.ts");
    const platform = await startMockPlatform({ dataDir: path.join(path.resolve(config.DATA_DIR), "mock-platform"), logger });
    hostMap = [platform.hostMap, hostMap].filter(Boolean).join(",");
    mocks = platform;
    logger.warn({ origin: platform.origin, examples: platform.exampleLinks }, "MOCKS=true: real video hosts are mapped to the built-in mock platform");
  }
  // Payments: with MOCKS=true and no Stripe key of its own, the server pays into the fake Stripe
  // (checkout page, portal, signed webhooks back to this server), so the journey works offline.
  let stripeConfig: AppConfig = config;
  let fakeStripe: { close(): Promise<void> } | null = null;
  if (config.MOCKS && !config.STRIPE_SECRET_KEY) {
    const { startFakeStripe } = await import("#tests/mocks/stripe.ts");
    const fake = await startFakeStripe({ webhookUrl: `http://127.0.0.1:${config.PORT}/api/stripe/webhook`, logger });
    stripeConfig = { ...config, ...fake.env };
    fakeStripe = fake;
    logger.warn({ origin: fake.origin }, "MOCKS=true: payments go to the built-in fake Stripe");
  }
  const billing = await createBillingServices(stripeConfig, { limiter: shared.billingLimiter });
  if (!billing) logger.warn("STRIPE_SECRET_KEY is not set: plans are shown but payments are not configured on this server");
  if (hostMap) logger.warn({ hostMap }, "OUTBOUND_HOST_MAP is set: outbound requests to these hosts go to the mapped origins");
  // the ways out, proxies without their credentials (decision 057)
  const egress = describeEgress(parseOutboundProxies(config.OUTBOUND_PROXIES), parseIpv6Cidr(config.OUTBOUND_IPV6_CIDR));
  if (egress.length > 0) logger.info({ egress }, "outbound requests of resolves and downloads leave by these egresses");

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    onPoolError: (err) => logger.error({ err }, "database pool error"),
  });
  logger.info({ driver: database.driver }, "database ready (migrations applied)");
  // Generated blog articles: catch up now, then check every 3 hours (spec §4).
  const stopBlogFreshness = startBlogFreshness({ db: database.db, logger });
  // what the privacy policy says is kept no longer is deleted: now, then daily
  const stopRetentionSweep = startRetentionSweep({ db: database.db, logger });

  // a Redis that is down or slow: attempts are counted in this process, with a warning
  const accountLimiter = withInProcessFallback(shared.accountLimiter, { logger, ipLimitScale: config.ACCOUNT_IP_LIMIT_SCALE });
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM ?? `${config.SITE_NAME} <no-reply@${new URL(config.PUBLIC_URL).hostname}>`,
    outboxDir: path.join(path.resolve(config.DATA_DIR), "outbox"),
    logger,
  });
  const accounts: AccountServices = {
    auth: createAuth({
      db: database.db,
      secret: authSecret,
      publicUrl: config.PUBLIC_URL,
      logger,
      siteName: config.SITE_NAME,
      mailer: limitMailsPerAddress(mailer, accountLimiter, logger),
    }),
    limiter: accountLimiter,
  };
  // one full collection once the server has been quiet a while (requests, downloads, start-up),
  // then the C heap's free pages given back
  const noteActivity = collectWhenQuiet({ afterCollect: opts.cHeapTrim });
  const healthCounts = createHealthCounts({ db: database.db, logger });
  const clientOrder = createClientOrder({ standings: () => healthCounts.canaryStandings(), logger });
  await clientOrder.refresh();
  const health = healthRecorder(shared.platformHealth, { logger, ignoreClient: CANARY_CLIENT, counts: healthCounts });
  const engine = await createEngine(engineConfigFrom(config, logger, signingSecret, hostMap), {
    // a signed-in user's downloads land in their history (the engine knows no database)
    onDownloadFinished: (event) => {
      noteActivity();
      health.downloadFinished(event);
      return recordDownload(database.db, event);
    },
    state: shared.engineState,
    // each platform's health (GET /api/v1/status); the canary records its own checks
    onResolved: (outcome) => health.resolved(outcome),
    clientOrder: (configured) => clientOrder.order(configured),
  });
  logger.info({ ffmpeg: engine.mediaTools.ffmpeg, version: engine.mediaTools.version, source: engine.mediaTools.source }, "ffmpeg located");
  logYtdlp(logger, engine.ytdlp, config.YTDLP_PATH);
  // what this yt-dlp reads, for the supported-sites page: listed in the background, kept per version
  const ytdlpExtractors = loadYtdlpExtractors(engine.ytdlp, { cacheDir: path.join(path.resolve(config.DATA_DIR), "yt-dlp"), logger });

  // background jobs, last: their handlers call the engine and the database opened above
  const jobStorage = createJobStorage(jobStorageOptionsFrom(config, logger));
  // the owner's file links are signed with a key of their own, derived from the download-link secret
  const fileLinkSecret = createHmac("sha256", signingSecret).update("job-file-links").digest("hex");
  const fileLink = (job: { jobId: string; userId: string; expiresAt: Date }) =>
    new URL(`/api/v1/jobs/${encodeURIComponent(job.jobId)}/file?token=${encodeURIComponent(signFileLink(job, fileLinkSecret))}`, config.PUBLIC_URL).href;
  const jobs = createJobRunner({
    database,
    databaseUrl: config.DATABASE_URL,
    logger,
    definitions: jobDefinitions({
      logger,
      // rows past their 24 hours, then anything left in storage a while longer (a crash between the two)
      deleteExpiredFiles: async (now) =>
        (await deleteExpiredJobFiles({ db: database.db, deleteFile: (key) => jobStorage.delete(key) }, now)) +
        (await jobStorage.deleteOlderThan(new Date(now.getTime() - JOB_FILE_TTL_MS - 3600_000))),
      scheduledDownload: {
        db: database.db,
        logger,
        mailer,
        siteName: config.SITE_NAME,
        publicUrl: config.PUBLIC_URL,
        openDownload: (input) => engine.openDownload(input),
        openBulkDownload: (input) => engine.openBulkDownload(input),
        storage: jobStorage,
        fileLink,
      },
      canary: {
        links: canaryLinksFor(config, mocks),
        intervalMinutes: config.CANARY_INTERVAL_MINUTES,
        canary: {
          openDownload: (input) => engine.openDownload(input),
          store: shared.platformHealth,
          counts: healthCounts,
          clientsOf: canaryClientsOf(config.YOUTUBE_CLIENTS, engine.ytdlp !== null),
          egresses: engine.egresses,
        },
        afterRun: async () => {
          await healthCounts.flush();
          await clientOrder.refresh();
        },
      },
    }),
  });
  await jobs.start();
  const scheduledJobs = {
    scheduled: createScheduledJobs({ db: database.db, queue: jobs }),
    fileLink,
    verifyFileLink: (token: string) => verifyFileLink(token, fileLinkSecret),
    deleteFilesOf: (userId: string) => deleteJobFilesOf({ db: database.db, deleteFile: (key) => jobStorage.delete(key), logger }, userId),
  };

  return {
    // routes key their hashes and cookies with the effective secret, generated or configured
    config: { ...stripeConfig, DOWNLOAD_SIGNING_SECRET: signingSecret, AUTH_SECRET: authSecret },
    logger,
    database,
    engine,
    ytdlpExtractors,
    accounts,
    mailer,
    billing,
    hostMap,
    mocks,
    shared,
    noteActivity,
    jobs,
    jobStorage,
    scheduledJobs,
    healthCounts,
    clientOrder,
    async close() {
      stopBlogFreshness();
      stopRetentionSweep();
      // running jobs get a few seconds; one still running then is retried after the restart
      await jobs.stop();
      // signups and mails answered already: their rows and mail go out before the database closes
      await settleBackgroundWork(10_000);
      await ytdlpExtractors.stop();
      await engine.close();
      clientOrder.stop();
      await healthCounts.close();
      await shared.close();
      await database.close();
      await mocks?.close();
      await fakeStripe?.close();
    },
  };
}

export function appServicesFrom(services: Services) {
  return {
    config: services.config,
    publicConfig: publicConfig(services.config),
    db: services.database.db,
    logger: services.logger,
    engine: services.engine,
    ytdlpExtractors: services.ytdlpExtractors,
    accounts: services.accounts,
    billing: services.billing,
    blogLimiter: services.shared.blogLimiter,
    mailer: services.mailer,
    jobs: services.scheduledJobs,
    jobFiles: services.jobStorage,
    database: services.database,
    hostMap: services.hostMap,
    rateLimitStore: services.shared.rateLimitStore,
    platformHealth: services.shared.platformHealth,
    platformNotices: createPlatformNotices({ store: services.shared.platformHealth, ytdlp: services.engine.ytdlp !== null, logger: services.logger }),
  };
}
