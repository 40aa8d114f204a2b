import { and, eq, isNotNull } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { downloadJobs } from "#db/schema/jobs.ts";

/**
 * Removes the stored files of one user's jobs from job storage and unlinks them from their rows
 * (account deletion calls this before the rows go; the rows themselves go with the user). A file
 * that cannot be removed is logged and left to the hourly sweep, which removes anything in
 * storage older than a file's lifetime. Returns how many files were removed.
 */
export async function deleteJobFilesOf(deps: { db: Database; deleteFile: (key: string) => Promise<void>; logger: Pick<Logger, "warn"> }, userId: string): Promise<number> {
  const rows = await deps.db
    .select({ id: downloadJobs.id, fileKey: downloadJobs.fileKey })
    .from(downloadJobs)
    .where(and(eq(downloadJobs.userId, userId), isNotNull(downloadJobs.fileKey)));
  let removed = 0;
  for (const row of rows) {
    try {
      await deps.deleteFile(row.fileKey!);
    } catch (err) {
      deps.logger.warn({ err, jobId: row.id }, "could not remove a job's file; the storage sweep will");
      continue;
    }
    await deps.db.update(downloadJobs).set({ fileKey: null }).where(eq(downloadJobs.id, row.id));
    removed++;
  }
  return removed;
}
