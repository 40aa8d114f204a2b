import type { Logger } from "pino";
import { canaryJob, type CanaryJobDeps } from "./canary.ts";
import { fileCleanupJob } from "./file-cleanup.ts";
import type { JobDefinition } from "./runner.ts";
import { scheduledDownloadJob, type ScheduledDownloadDeps } from "./scheduled-download.ts";

export { createJobRunner, JobNotQueued, type JobDefinition, type JobRunner, type SendOptions } from "./runner.ts";
export { FILE_CLEANUP_QUEUE } from "./file-cleanup.ts";
export { CANARY_QUEUE } from "./canary.ts";

/** What the jobs need from the host (server/services.ts builds it). */
export interface JobDeps {
  logger: Logger;
  /**
   * deletes job output past its 24 hours and resolves with the number of files deleted (the job
   * storage, jobs/storage); without it the hourly file cleanup is not scheduled
   */
  deleteExpiredFiles?: (now: Date) => Promise<number>;
  /** what a scheduled download needs (the engine, job storage, the mailer); without it the queue is not worked */
  scheduledDownload?: ScheduledDownloadDeps;
  /** the platform canary's links, interval and engine (issue 32 §5); without it the queue is not worked */
  canary?: Omit<CanaryJobDeps, "logger">;
}

/** Every queue this server works, with its handler; the runner starts them all. */
export function jobDefinitions(deps: JobDeps): JobDefinition<never>[] {
  const logger = deps.logger.child({ module: "jobs" });
  const definitions: JobDefinition<never>[] = [];
  if (deps.deleteExpiredFiles) definitions.push(fileCleanupJob({ deleteExpired: deps.deleteExpiredFiles, logger }));
  if (deps.canary) definitions.push(canaryJob({ ...deps.canary, logger: logger.child({ queue: "canary" }) }) as JobDefinition<never>);
  if (deps.scheduledDownload) {
    const job = scheduledDownloadJob(deps.scheduledDownload);
    definitions.push({
      queue: job.queue,
      // a crash is noticed within the heartbeat, not by the end of a long download; a job is
      // retried after a crash (it writes its file under its own id), its own attempts inside run()
      queueOptions: { heartbeatSeconds: 30, expireInSeconds: 6 * 3600, retryLimit: 3, retryDelay: 30, deleteAfterSeconds: 7 * 24 * 3600 },
      concurrency: 2,
      handler: (running: { id: string; data: { jobId: string }; signal: AbortSignal }) => job.run(running),
    } as JobDefinition<never>);
  }
  return definitions;
}
