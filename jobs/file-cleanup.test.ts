/**
 * The hourly file cleanup: scheduled in pg-boss as a cron, and its handler asks the storage to
 * delete what expired by the job's moment and logs how many files went.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, expect, it } from "vitest";
import { openTestPglite, type DatabaseHandle } from "#db/client.ts";
import { FILE_CLEANUP_CRON, FILE_CLEANUP_QUEUE, fileCleanupJob } from "./file-cleanup.ts";
import { jobDefinitions } from "./index.ts";
import { createJobRunner, type JobRunner } from "./runner.ts";

const open: Array<JobRunner | DatabaseHandle> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await ("boss" in item ? item.stop({ timeoutMs: 1000 }) : item.close());
});

function capture() {
  const lines: Array<{ msg: string; deleted?: number }> = [];
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  return { logger, lines };
}

it("deletes what expired by now and logs the count", async () => {
  const { logger, lines } = capture();
  const asked: Date[] = [];
  const now = new Date("2026-11-26T12:07:00Z");
  const job = fileCleanupJob({ logger, now: () => now, deleteExpired: async (at) => (asked.push(at), 3) });
  expect(await job.handler({ id: "j1", data: null, retryCount: 0, signal: new AbortController().signal })).toEqual({ deleted: 3 });
  expect(asked).toEqual([now]);
  expect(lines.at(-1)).toMatchObject({ deleted: 3, msg: "job files past their 24 hours deleted: 3" });
});

it("a storage failure fails the job (pg-boss retries it)", async () => {
  const job = fileCleanupJob({ logger: pino({ level: "silent" }), deleteExpired: async () => Promise.reject(new Error("bucket unreachable")) });
  await expect(job.handler({ id: "j1", data: null, retryCount: 0, signal: new AbortController().signal })).rejects.toThrow("bucket unreachable");
});

it("runs hourly through the runner: scheduled as a cron, and a job on its queue sweeps", async () => {
  const database = await openTestPglite();
  open.push(database);
  const { logger, lines } = capture();
  let sweeps = 0;
  const runner = createJobRunner({ database, logger, pollingIntervalSeconds: 0.5, definitions: jobDefinitions({ logger, deleteExpiredFiles: async () => (sweeps++, 1) }) });
  open.push(runner);
  await runner.start();
  const [schedule] = await runner.boss.getSchedules(FILE_CLEANUP_QUEUE);
  expect(schedule).toMatchObject({ cron: FILE_CLEANUP_CRON, timezone: "UTC" });
  // every hour, on one minute of it
  const next = runner.boss.previewSchedule(FILE_CLEANUP_CRON, { count: 3 });
  expect(next.map((d) => d.getUTCMinutes())).toEqual([7, 7, 7]);
  expect(next[1]!.getTime() - next[0]!.getTime()).toBe(3600_000);
  // what the cron sends: one job on the queue, worked like any other
  const id = await runner.send(FILE_CLEANUP_QUEUE, {});
  for (let i = 0; i < 200 && (await runner.getJob(FILE_CLEANUP_QUEUE, id))?.state !== "completed"; i++) await new Promise((r) => setTimeout(r, 50));
  expect((await runner.getJob(FILE_CLEANUP_QUEUE, id))?.output).toEqual({ deleted: 1 });
  expect(lines.some((l) => l.msg === "job files past their 24 hours deleted: 1")).toBe(true);
  expect(sweeps).toBeGreaterThanOrEqual(1);
});

it("without a storage sweep the cleanup is not defined", () => {
  expect(jobDefinitions({ logger: pino({ level: "silent" }) }).map((d) => d.queue)).toEqual([]);
});
