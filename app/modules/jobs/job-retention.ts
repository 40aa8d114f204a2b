/** How long scheduled downloads' files and records are kept (the privacy policy quotes these). Browser-safe. */
export const JOB_FILE_TTL_HOURS = 24;
export const JOB_FILE_TTL_MS = JOB_FILE_TTL_HOURS * 3600 * 1000;
/** a job's row, counted from when it ran, failed or was canceled */
export const JOB_RECORD_RETENTION_DAYS = 90;

export function jobRecordCutoff(now: Date): Date {
  return new Date(now.getTime() - JOB_RECORD_RETENTION_DAYS * 86_400_000);
}
