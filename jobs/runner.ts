import { PgBoss, fromPglite, type ConstructorOptions, type JobWithMetadata } from "pg-boss";
import type { Logger } from "pino";
import type { DatabaseHandle } from "#db/client.ts";

/**
 * Background work on pg-boss (docs/decisions/045): with `DATABASE_URL` its own small pool on our
 * PostgreSQL, so several instances share one queue; on the embedded default pg-boss's PGlite
 * adapter on the very PGlite instance the app uses (no socket, statements never interleave).
 * pg-boss owns the `pgboss` schema and migrates it at start, after drizzle's migrations.
 */

/** Retry, expiry and heartbeat settings of one queue (pg-boss's queue options). */
export interface JobQueueOptions {
  /** attempts after the first before the job is failed (pg-boss default 2) */
  retryLimit?: number;
  /** seconds between a failure and the next attempt */
  retryDelay?: number;
  retryBackoff?: boolean;
  /** seconds a job may stay active; long jobs keep this generous and rely on the heartbeat */
  expireInSeconds?: number;
  /** a worker that stops sending heartbeats (a crash) has its job retried after this (>= 10) */
  heartbeatSeconds?: number;
  /** seconds a completed job's row is kept */
  deleteAfterSeconds?: number;
  /** seconds a job may wait to start before it is dropped */
  retentionSeconds?: number;
}

/** What a handler gets: the job's id and data, and a signal aborted when the runner gives up on it. */
export interface RunningJob<T> {
  id: string;
  data: T;
  /** 0 on the first attempt, then one more per retry (a crash or a thrown error) */
  retryCount: number;
  signal: AbortSignal;
}

export interface JobDefinition<T = unknown> {
  /** queue name: letters, digits, "-", "_", "." and "/" */
  queue: string;
  queueOptions?: JobQueueOptions;
  /**
   * Runs one job. At-least-once: after a crash the job runs again, so a handler writes its output
   * under the job id (overwrites) rather than appending. What it returns is kept as the job's output.
   */
  handler(job: RunningJob<T>): Promise<unknown>;
  /** a cron expression (UTC): the runner schedules one job per occurrence, once across instances */
  cron?: string;
  /** jobs this process runs at the same time from this queue (default 1) */
  concurrency?: number;
}

export interface SendOptions {
  /** not before this moment (a scheduled job) */
  startAfter?: Date;
  /** the job's id (a UUID); by default pg-boss picks one */
  id?: string;
  /** at most one queued or active job with this key */
  singletonKey?: string;
}

export type JobRecord<T> = JobWithMetadata<T>;

export interface JobRunner {
  /** the pg-boss instance, for what the runner does not wrap (findJobs, getQueue, …) */
  boss: PgBoss;
  /** migrate pg-boss's schema, create or update the queues, start the workers, schedule the crons */
  start(): Promise<void>;
  /** stop taking jobs, give running handlers up to `timeoutMs` (then they are failed and retried later) */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
  /** queue a job; resolves with its id */
  send<T extends object>(queue: string, data: T, opts?: SendOptions): Promise<string>;
  /** cancel a queued job, or a running one (its handler's signal is aborted at its next heartbeat) */
  cancel(queue: string, id: string): Promise<void>;
  /** one job with its state, output and timings, or null when unknown */
  getJob<T = unknown>(queue: string, id: string): Promise<JobRecord<T> | null>;
}

/** The schema pg-boss installs its tables in, beside drizzle's. */
export const JOBS_SCHEMA = "pgboss";

/**
 * How often pg-boss looks for jobs whose heartbeat or expiry lapsed: a crashed job is retried
 * within its heartbeat plus this. The monitor runs inside the supervise pass, so both intervals
 * are lowered (pg-boss's defaults of 60 s held a crashed job's retry for a minute).
 */
const MONITOR_INTERVAL_SECONDS = 10;

/** A job that falls due (its start time, a retry) starts within this many seconds. */
const DEFAULT_POLLING_SECONDS = 2;

/** Inside the server's 10 s shutdown grace (server/shutdown.ts), with room to close the rest. */
export const DEFAULT_STOP_TIMEOUT_MS = 6_000;

/** A job pg-boss did not queue: an id that exists already, or a singleton key already taken. */
export class JobNotQueued extends Error {
  constructor(queue: string, opts: SendOptions) {
    const why = opts.id ? `a job with id ${opts.id} exists already` : opts.singletonKey ? `a job with key "${opts.singletonKey}" is already queued or running` : "pg-boss refused it";
    super(`job not queued on "${queue}": ${why}`);
    this.name = "JobNotQueued";
  }
}

export interface JobRunnerOptions {
  database: DatabaseHandle;
  /** PostgreSQL's URL (`DATABASE_URL`); required when the database's driver is "postgres" */
  databaseUrl?: string;
  logger: Logger;
  definitions: JobDefinition<never>[];
  /** pg-boss's schema; tests use a unique one per run on a shared PostgreSQL */
  schema?: string;
  /** seconds between polls of a queue (default 2); a job sent for now wakes its worker at once (NOTIFY) */
  pollingIntervalSeconds?: number;
  /** pg-boss constructor settings for tests (intervals); never burstWhen* (decision 045) */
  bossOptions?: Pick<ConstructorOptions, "monitorIntervalSeconds" | "superviseIntervalSeconds" | "cronMonitorIntervalSeconds" | "cronWorkerIntervalSeconds">;
}

const QUEUE_NAME = /^[\w.\-/]+$/;

export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  const { database, logger } = opts;
  const definitions = opts.definitions as JobDefinition<unknown>[];
  const byQueue = new Map<string, JobDefinition<unknown>>();
  for (const def of definitions) {
    if (!QUEUE_NAME.test(def.queue)) throw new Error(`job queue name "${def.queue}" is invalid: use letters, digits, "-", "_", "." and "/"`);
    if (byQueue.has(def.queue)) throw new Error(`job queue "${def.queue}" is defined twice`);
    const hb = def.queueOptions?.heartbeatSeconds;
    if (hb !== undefined && hb < 10) throw new Error(`job queue "${def.queue}": heartbeatSeconds must be at least 10 (got ${hb})`);
    byQueue.set(def.queue, def);
  }

  const common: ConstructorOptions = {
    schema: opts.schema ?? JOBS_SCHEMA,
    migrate: true,
    useListenNotify: true,
    monitorIntervalSeconds: MONITOR_INTERVAL_SECONDS,
    superviseIntervalSeconds: MONITOR_INTERVAL_SECONDS,
    ...opts.bossOptions,
  };
  let boss: PgBoss;
  if (database.driver === "pglite") {
    if (!database.pglite) throw new Error("the embedded database handle does not expose its PGlite instance: the job runner needs it");
    // pg-boss's own adapter on the app's instance; pg-boss never closes it (the handle does)
    boss = new PgBoss({ ...common, db: fromPglite(database.pglite), backend: "pglite" });
  } else {
    if (!opts.databaseUrl) throw new Error("the job runner needs the PostgreSQL URL (DATABASE_URL) the database was opened with");
    // its own small pool beside the app's, plus one LISTEN connection
    boss = new PgBoss({ ...common, connectionString: opts.databaseUrl, max: 4 });
  }
  const log = logger.child({ module: "jobs" });
  // An `error` event without a listener would crash the process: pg-boss reports failed polls here.
  boss.on("error", (err) => log.error({ err }, "job runner error"));
  boss.on("warning", (warning) => log.warn({ warning }, "job runner warning"));

  let started = false;
  const known = (queue: string) => {
    if (!byQueue.has(queue)) throw new Error(`no job queue named "${queue}" (defined: ${[...byQueue.keys()].join(", ") || "none"})`);
  };

  return {
    boss,
    async start() {
      if (started) return;
      const t0 = Date.now();
      await boss.start();
      for (const def of definitions) {
        // pg-boss rejects a key present with `undefined` (heartbeatSeconds: undefined is not ">= 10")
        const options = { ...definedOnly(def.queueOptions ?? {}), notify: true };
        // create_queue keeps an existing queue's settings: update them so a changed definition applies
        await boss.createQueue(def.queue, options);
        const { heartbeatSeconds, ...updatable } = options;
        await boss.updateQueue(def.queue, { ...updatable, heartbeatSeconds: heartbeatSeconds ?? null });
      }
      for (const def of definitions) {
        // NOTIFY fires when a job is inserted, not when a later one (startAfter) or a retry falls due:
        // those wait for a poll, so the relaxed notify interval (pg-boss's 30 s) is not used.
        const polling = opts.pollingIntervalSeconds ?? DEFAULT_POLLING_SECONDS;
        const workOptions = { pollingIntervalSeconds: polling, notifyPollingIntervalSeconds: polling, localConcurrency: def.concurrency ?? 1 };
        // batchSize 1: pg-boss hands one job at a time
        await boss.work<unknown>(def.queue, workOptions, async ([job]) => {
          if (!job) return;
          const jobLog = log.child({ queue: def.queue, jobId: job.id, attempt: job.retryCount + 1 });
          const began = Date.now();
          try {
            const output = await def.handler({ id: job.id, data: job.data, retryCount: job.retryCount, signal: job.signal });
            jobLog.info({ ms: Date.now() - began }, "job done");
            return output;
          } catch (err) {
            jobLog.warn({ err, ms: Date.now() - began }, "job failed");
            throw err;
          }
        });
        if (def.cron) await boss.schedule(def.queue, def.cron, null, { tz: "UTC" });
        else await boss.unschedule(def.queue);
      }
      started = true;
      log.info({ queues: definitions.map((d) => d.queue), driver: database.driver, ms: Date.now() - t0 }, "job runner started");
    },
    async stop(stopOpts = {}) {
      // pg-boss closes only a pool it opened; the PGlite instance stays open for database.close()
      await boss.stop({ graceful: true, timeout: stopOpts.timeoutMs ?? DEFAULT_STOP_TIMEOUT_MS });
      started = false;
    },
    async send(queue, data, sendOpts = {}) {
      known(queue);
      const id = await boss.send(queue, data, { id: sendOpts.id, startAfter: sendOpts.startAfter, singletonKey: sendOpts.singletonKey });
      if (!id) throw new JobNotQueued(queue, sendOpts);
      return id;
    },
    async cancel(queue, id) {
      known(queue);
      await boss.cancel(queue, id);
    },
    async getJob<T>(queue: string, id: string) {
      known(queue);
      const [job] = await boss.findJobs<T>(queue, { id });
      return job ?? null;
    },
  };
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
