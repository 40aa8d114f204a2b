/**
 * The job runner on the embedded database: pg-boss's PGlite adapter on the app's own instance,
 * and a real PostgreSQL when TEST_DATABASE_URL is set (a fresh database per test). Jobs go in
 * through the runner and come out through real workers.
 */
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { createJobRunner, JobNotQueued, type JobDefinition, type JobRunner } from "./runner.ts";

const logger = pino({ level: "silent" });
const runners: JobRunner[] = [];
afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop({ timeoutMs: 1000 });
});

async function until<T>(check: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** the PostgreSQL variant's fresh database (undefined on PGlite) */
const databaseUrlOf = (handle: TestDatabase) => handle.url;

describe.each(testDatabases)("job runner on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);

  async function runner(database: TestDatabase, definitions: JobDefinition<never>[]) {
    const r = createJobRunner({ database, databaseUrl: databaseUrlOf(database), logger, definitions, pollingIntervalSeconds: 0.5 });
    runners.push(r);
    await r.start();
    return r;
  }

  it.skipIf(skip)("a job sent runs its handler with its data; getJob shows it completed with the output", async () => {
    const database = await open();
    const seen: Array<{ id: string; data: unknown; retryCount: number }> = [];
    const echo: JobDefinition<{ n: number }> = {
      queue: "echo",
      async handler(job) {
        seen.push({ id: job.id, data: job.data, retryCount: job.retryCount });
        return { doubled: job.data.n * 2 };
      },
    };
    const r = await runner(database, [echo]);
    const id = await r.send("echo", { n: 21 });
    const done = await until(async () => {
      const job = await r.getJob<{ n: number }>("echo", id);
      return job?.state === "completed" && job;
    });
    expect(done.output).toEqual({ doubled: 42 });
    expect(seen).toEqual([{ id, data: { n: 21 }, retryCount: 0 }]);
    // the app's tables and pg-boss's live side by side on one database
    expect(await r.getJob("echo", "00000000-0000-4000-8000-000000000000")).toBeNull();
  });

  it.skipIf(skip)("a handler that throws is retried per the queue's options, then completes", async () => {
    const database = await open();
    let calls = 0;
    const flaky: JobDefinition<object> = {
      queue: "flaky",
      queueOptions: { retryLimit: 3, retryDelay: 0 },
      async handler() {
        calls += 1;
        if (calls < 3) throw new Error(`attempt ${calls} fails`);
        return { calls };
      },
    };
    const r = await runner(database, [flaky]);
    const id = await r.send("flaky", {});
    const done = await until(async () => {
      const job = await r.getJob("flaky", id);
      return job?.state === "completed" && job;
    });
    expect(done.retryCount).toBe(2);
    expect(calls).toBe(3);
  });

  it.skipIf(skip)("a job for later waits; cancel removes it before it runs; a taken id is refused clearly", async () => {
    const database = await open();
    let ran = 0;
    const later: JobDefinition<object> = {
      queue: "later",
      async handler() {
        ran += 1;
      },
    };
    const r = await runner(database, [later]);
    const id = await r.send("later", {}, { startAfter: new Date(Date.now() + 3600_000) });
    expect((await r.getJob("later", id))?.state).toBe("created");
    await expect(r.send("later", {}, { id })).rejects.toThrow(JobNotQueued);
    await r.cancel("later", id);
    expect((await r.getJob("later", id))?.state).toBe("cancelled");
    expect(ran).toBe(0);
  });

  it.skipIf(skip)("a cron definition is scheduled once in pg-boss; a queue that lost its cron is unscheduled", async () => {
    const database = await open();
    const def = (cron?: string): JobDefinition<null> => ({ queue: "sweep", cron, async handler() {} });
    const first = await runner(database, [def("7 * * * *")]);
    expect((await first.boss.getSchedules("sweep")).map((s) => ({ cron: s.cron, tz: s.timezone }))).toEqual([{ cron: "7 * * * *", tz: "UTC" }]);
    await first.stop({ timeoutMs: 1000 });
    const second = await runner(database, [def()]);
    expect(await second.boss.getSchedules("sweep")).toEqual([]);
  });

  it.skipIf(skip)("a changed queue definition applies on the next start", async () => {
    const database = await open();
    const def = (retryLimit: number, heartbeatSeconds?: number): JobDefinition<null> => ({ queue: "tuned", queueOptions: { retryLimit, heartbeatSeconds }, async handler() {} });
    const first = await runner(database, [def(1, 30)]);
    expect(await first.boss.getQueue("tuned")).toMatchObject({ retryLimit: 1, heartbeatSeconds: 30, notify: true });
    await first.stop({ timeoutMs: 1000 });
    const second = await runner(database, [def(5)]);
    const queue = await second.boss.getQueue("tuned");
    expect(queue).toMatchObject({ retryLimit: 5 });
    expect(queue?.heartbeatSeconds ?? null).toBeNull();
  });

  it.skipIf(skip)("stop gives a running handler its time, then fails it so it is retried later; the database stays open", async () => {
    const database = await open();
    let started = false;
    const slow: JobDefinition<object> = {
      queue: "slow",
      queueOptions: { retryLimit: 2 },
      async handler(job) {
        started = true;
        await new Promise((resolve) => {
          const t = setTimeout(resolve, 60_000);
          job.signal.addEventListener("abort", () => {
            clearTimeout(t);
            resolve(undefined);
          });
        });
      },
    };
    const r = await runner(database, [slow]);
    const id = await r.send("slow", {});
    await until(async () => started);
    const t0 = Date.now();
    await r.stop({ timeoutMs: 1000 });
    expect(Date.now() - t0).toBeLessThan(5000);
    await database.ping();
    const after = createJobRunner({ database, databaseUrl: databaseUrlOf(database), logger, definitions: [] });
    runners.push(after);
    await after.start();
    const job = await after.boss.findJobs("slow", { id });
    expect(job[0]?.state).toBe("retry");
  });
});

describe("job definitions", () => {
  const database = { driver: "pglite", pglite: {} } as unknown as TestDatabase;
  const handler = async () => {};
  it("are checked before anything starts", () => {
    expect(() => createJobRunner({ database, logger, definitions: [{ queue: "bad name!", handler }] })).toThrow(/queue name "bad name!" is invalid/);
    expect(() => createJobRunner({ database, logger, definitions: [{ queue: "a", handler }, { queue: "a", handler }] })).toThrow(/"a" is defined twice/);
    expect(() => createJobRunner({ database, logger, definitions: [{ queue: "a", handler, queueOptions: { heartbeatSeconds: 5 } }] })).toThrow(/heartbeatSeconds must be at least 10/);
  });
  it("need the PostgreSQL URL on PostgreSQL and the PGlite instance on the embedded database", () => {
    expect(() => createJobRunner({ database: { ...database, driver: "postgres" }, logger, definitions: [] })).toThrow(/needs the PostgreSQL URL/);
    expect(() => createJobRunner({ database: { ...database, pglite: undefined }, logger, definitions: [] })).toThrow(/does not expose its PGlite instance/);
  });
  it("send, cancel and getJob name an unknown queue", async () => {
    const r = createJobRunner({ database: { ...database, pglite: { query: async () => ({ rows: [] }), exec: async () => [] } } as unknown as TestDatabase, logger, definitions: [{ queue: "known", handler }] });
    await expect(r.send("unknown", {})).rejects.toThrow('no job queue named "unknown" (defined: known)');
  });
});
