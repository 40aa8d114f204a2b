import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { MailMessage } from "#app/modules/account/mailer.server.ts";
import { createJobRunner, jobDefinitions, type JobRunner } from "#jobs/index.ts";
import { createJobStorage, type JobStorage } from "#jobs/storage/job-storage.ts";
import type { TestDatabase } from "#tests/support/test-db.ts";
import type { PlanFixture } from "../plans/plan-fixture.ts";
import { silentLogger } from "../youtube/helpers.ts";

/**
 * The job queue as the host runs it (pg-boss, the scheduled-download handler through the plan
 * fixture's engine), on its own pg-boss schema, with job storage in a temporary folder and the
 * mail it sends collected. `close()` stops it and removes what it made.
 */
export interface JobQueueFixture {
  runner: JobRunner;
  storage: JobStorage;
  dataDir: string;
  mails: MailMessage[];
  close(): Promise<void>;
}

export async function startJobQueue(
  db: TestDatabase,
  fixture: PlanFixture,
  opts: { publicUrl: string; fileLink(job: { jobId: string; userId: string; expiresAt: Date }): string },
): Promise<JobQueueFixture> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-jobs-"));
  const storage = createJobStorage({ dataDir, maxBytes: 512 * 1024 * 1024, logger: silentLogger });
  const mails: MailMessage[] = [];
  const schema = `pgboss_test_${randomBytes(4).toString("hex")}`;
  const runner = createJobRunner({
    database: db,
    databaseUrl: db.url,
    schema,
    logger: silentLogger,
    definitions: jobDefinitions({
      logger: silentLogger,
      scheduledDownload: {
        db: db.db,
        logger: silentLogger,
        mailer: { send: async (m: MailMessage) => void mails.push(m) } as never,
        siteName: "VidFetch",
        publicUrl: opts.publicUrl,
        openDownload: (input) => fixture.engine.openDownload(input),
        openBulkDownload: (input) => fixture.engine.openBulkDownload(input),
        storage,
        fileLink: opts.fileLink,
        progressEveryMs: 50,
      },
    }),
  });
  const close = async () => {
    await runner.stop({ timeoutMs: 2000 });
    await rm(dataDir, { recursive: true, force: true });
    if (db.url) {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  };
  try {
    await runner.start();
  } catch (err) {
    await close();
    throw err;
  }
  return { runner, storage, dataDir, mails, close };
}
