import type { Logger } from "pino";
import { fileCleanupJob } from "./file-cleanup.ts";
import type { JobDefinition } from "./runner.ts";

export { createJobRunner, JobNotQueued, type JobDefinition, type JobRunner, type SendOptions } from "./runner.ts";
export { FILE_CLEANUP_QUEUE } from "./file-cleanup.ts";

/** What the jobs need from the host (server/services.ts builds it). */
export interface JobDeps {
  logger: Logger;
  /**
   * deletes job output past its 24 hours and resolves with the number of files deleted (the job
   * storage, jobs/storage); without it the hourly file cleanup is not scheduled
   */
  deleteExpiredFiles?: (now: Date) => Promise<number>;
}

/** Every queue this server works, with its handler; the runner starts them all. */
export function jobDefinitions(deps: JobDeps): JobDefinition<never>[] {
  const logger = deps.logger.child({ module: "jobs" });
  const definitions: JobDefinition<never>[] = [];
  if (deps.deleteExpiredFiles) definitions.push(fileCleanupJob({ deleteExpired: deps.deleteExpiredFiles, logger }));
  // scheduled downloads, bulk ZIPs: one definition per job file (jobs/<name>.ts), pushed here
  return definitions;
}
