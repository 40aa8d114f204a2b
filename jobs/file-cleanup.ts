import type { Logger } from "pino";
import type { JobDefinition } from "./runner.ts";

/** The queue of the hourly sweep that deletes finished jobs' files past their 24 hours. */
export const FILE_CLEANUP_QUEUE = "file-cleanup";

/** At minute 7 of every hour (UTC): off the hour, when other hourly work starts. */
export const FILE_CLEANUP_CRON = "7 * * * *";

export interface FileCleanupDeps {
  /** deletes the job files that expired by `now` (storage and their rows); resolves with how many */
  deleteExpired(now: Date): Promise<number>;
  logger: Logger;
  /** the clock, for tests */
  now?: () => Date;
}

/**
 * Job output is kept 24 hours (issue 30 §1). One sweep an hour, once across instances (pg-boss
 * schedules the cron in the database); a sweep that fails is retried, and the next one catches up.
 */
export function fileCleanupJob(deps: FileCleanupDeps): JobDefinition<null> {
  const now = deps.now ?? (() => new Date());
  return {
    queue: FILE_CLEANUP_QUEUE,
    cron: FILE_CLEANUP_CRON,
    // a sweep that has not finished within 10 minutes is abandoned; an hour's rows are kept a day
    queueOptions: { retryLimit: 2, retryDelay: 60, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
    async handler() {
      const deleted = await deps.deleteExpired(now());
      deps.logger.info({ deleted }, deleted ? `job files past their 24 hours deleted: ${deleted}` : "no expired job files");
      return { deleted };
    },
  };
}
