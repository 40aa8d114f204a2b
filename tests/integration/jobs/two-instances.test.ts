/**
 * Issue 30 §5: several instances on one PostgreSQL share the queue, and a job runs once. Two
 * runners, each with its own pool as two servers would have, work one queue of 200 jobs; every
 * job runs exactly once, and both instances take part. Needs TEST_DATABASE_URL (a fresh database
 * and a pg-boss schema of its own, dropped afterwards).
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createJobRunner, type JobDefinition, type JobRunner } from "#jobs/runner.ts";
import { testDatabases, withTestDatabase } from "#tests/support/test-db.ts";

const postgres = testDatabases.find((v) => v.name === "postgres")!;
const JOBS = 200;

describe("two instances on one PostgreSQL", () => {
  const { skip, open } = withTestDatabase(postgres);

  it.skipIf(skip)(`${JOBS} jobs: each runs exactly once, on one instance or the other`, async () => {
    const database = await open();
    const url = database.url!;
    const schema = `pgboss_test_${randomBytes(4).toString("hex")}`;
    const runs = new Map<string, string[]>();
    const instance = (name: string): JobRunner => {
      const work: JobDefinition<{ n: number }> = {
        queue: "shared-work",
        queueOptions: { retryLimit: 0 },
        concurrency: 5,
        async handler(job) {
          runs.set(job.id, [...(runs.get(job.id) ?? []), name]);
          await sleep(5 + Math.random() * 20);
          return { n: job.data.n, by: name };
        },
      };
      return createJobRunner({ database, databaseUrl: url, schema, logger: pino({ level: "warn" }), definitions: [work as JobDefinition<never>], pollingIntervalSeconds: 0.5 });
    };
    const a = instance("a");
    const b = instance("b");
    try {
      // both start together on an empty schema: the install race resolves itself
      await Promise.all([a.start(), b.start()]);
      const ids: string[] = [];
      for (let n = 0; n < JOBS; n++) ids.push(await (n % 2 ? a : b).send("shared-work", { n }));
      expect(new Set(ids).size).toBe(JOBS);
      const deadline = Date.now() + 120_000;
      while ([...ids].some((id) => !runs.has(id)) && Date.now() < deadline) await sleep(200);
      await sleep(1500); // a second run of any job would land by now
      const completed = await a.boss.findJobs("shared-work", { limit: 1000 });
      expect(completed.filter((j) => j.state === "completed")).toHaveLength(JOBS);
      expect(ids.filter((id) => runs.get(id)?.length !== 1)).toEqual([]);
      expect(runs.size).toBe(JOBS);
      const byInstance = { a: 0, b: 0 };
      for (const [who] of runs.values()) byInstance[who as "a" | "b"] += 1;
      expect(byInstance.a).toBeGreaterThan(0);
      expect(byInstance.b).toBeGreaterThan(0);
      // the output each job recorded names the one instance that ran it
      for (const job of completed) expect((job.output as { by: string }).by).toBe(runs.get(job.id)![0]);
    } finally {
      await Promise.all([a.stop({ timeoutMs: 2000 }), b.stop({ timeoutMs: 2000 })]);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }, 180_000);
});
