/**
 * One server process's job runner, for the restart proofs (restart.test.ts). Opens the database
 * the way the server does (openDatabase: PGlite in DATA_DIR, or PostgreSQL), starts the runner
 * with one queue, and then:
 *   - `send`: queues one job, writes its id to `<marks>/job-id`, and works it. The first attempt's
 *     handler writes `<marks>/started` and kills this process with SIGKILL mid-job.
 *   - `resume`: works the queue until the job is completed, waits a little longer (a second run
 *     would show up as a second completion file), stops gracefully and exits 0.
 * Every completed run of the handler leaves `<marks>/completed-<pid>-<n>`.
 *
 * env: MODE, MARKS, and DATA_DIR or DATABASE_URL (+ JOBS_SCHEMA).
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { openDatabase } from "#db/client.ts";
import { createJobRunner, type JobDefinition } from "#jobs/runner.ts";

const mode = process.env.MODE;
const marks = process.env.MARKS;
if ((mode !== "send" && mode !== "resume") || !marks) throw new Error("crash-child: MODE=send|resume and MARKS are required");

const CRASH_QUEUE = "crash-proof";
const databaseUrl = process.env.DATABASE_URL || undefined;
const database = await openDatabase({ databaseUrl, dataDir: process.env.DATA_DIR ?? null });
let completions = 0;
const definition: JobDefinition<{ label: string }> = {
  queue: CRASH_QUEUE,
  // as a long download's queue: a heartbeat notices the crash, the expiry does not cap the job
  queueOptions: { retryLimit: 3, heartbeatSeconds: 10, expireInSeconds: 3600 },
  async handler(job) {
    if (!existsSync(path.join(marks, "started"))) {
      await writeFile(path.join(marks, "started"), job.id);
      await sleep(300); // mid-job: the heartbeat has been recorded, the work is under way
      process.kill(process.pid, "SIGKILL");
      await sleep(10_000);
    }
    await sleep(200);
    completions += 1;
    await writeFile(path.join(marks, `completed-${process.pid}-${completions}`), JSON.stringify({ id: job.id, data: job.data, retryCount: job.retryCount }));
    return { ok: true };
  },
};
const runner = createJobRunner({
  database,
  databaseUrl,
  schema: process.env.JOBS_SCHEMA,
  logger: pino({ level: "warn" }),
  definitions: [definition as JobDefinition<never>],
  pollingIntervalSeconds: 0.5,
  // the pass that notices a lapsed heartbeat, every second instead of every 10
  bossOptions: { monitorIntervalSeconds: 1, superviseIntervalSeconds: 1 },
});
await runner.start();

if (mode === "send") {
  const id = await runner.send(CRASH_QUEUE, { label: "restart proof" });
  await writeFile(path.join(marks, "job-id"), id);
  await sleep(60_000); // killed by its own handler long before this
  throw new Error("the job's first attempt did not run");
}

const id = (await readFile(path.join(marks, "job-id"), "utf8")).trim();
const deadline = Date.now() + 60_000;
for (;;) {
  const job = await runner.getJob(CRASH_QUEUE, id);
  if (job?.state === "completed") break;
  if (Date.now() > deadline) throw new Error(`the job was not completed after the restart (state ${job?.state})`);
  await sleep(200);
}
await sleep(2000);
const job = await runner.getJob(CRASH_QUEUE, id);
await writeFile(path.join(marks, "resumed"), JSON.stringify({ state: job?.state, retryCount: job?.retryCount }));
await runner.stop({ timeoutMs: 2000 });
await database.close();
process.exit(0);
