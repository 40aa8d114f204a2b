/**
 * Issue 30 §5: a job interrupted by a crash is retried after the restart and completes once.
 * A child process (crash-child.ts) queues a job whose first attempt kills the process with
 * SIGKILL mid-job; a new process on the same database finishes it. Completions are counted by
 * the files each finished run leaves. On the embedded database (one DATA_DIR) and, when
 * TEST_DATABASE_URL is set, on PostgreSQL (a fresh database and a pg-boss schema of its own).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { testDatabases, withTestDatabase } from "#tests/support/test-db.ts";

const CHILD = path.join(import.meta.dirname, "crash-child.ts");
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function runChild(env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], { cwd: process.cwd(), env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

async function crashThenResume(env: Record<string, string>) {
  const marks = await mkdtemp(path.join(tmpdir(), "vidfetch-jobs-marks-"));
  cleanups.push(() => rm(marks, { recursive: true, force: true }));
  const first = await runChild({ ...env, MODE: "send", MARKS: marks });
  expect(first.signal, first.stderr).toBe("SIGKILL");
  expect(existsSync(path.join(marks, "started"))).toBe(true);
  const id = (await readFile(path.join(marks, "job-id"), "utf8")).trim();
  expect(await readFile(path.join(marks, "started"), "utf8")).toBe(id);
  // the crash left no completion behind
  expect((await readdir(marks)).filter((f) => f.startsWith("completed-"))).toEqual([]);

  const second = await runChild({ ...env, MODE: "resume", MARKS: marks });
  expect(second.code, second.stderr).toBe(0);
  const completed = (await readdir(marks)).filter((f) => f.startsWith("completed-"));
  expect(completed).toHaveLength(1);
  const run = JSON.parse(await readFile(path.join(marks, completed[0]!), "utf8"));
  // the same job, its data intact, on its second attempt
  expect(run).toEqual({ id, data: { label: "restart proof" }, retryCount: 1 });
  expect(JSON.parse(await readFile(path.join(marks, "resumed"), "utf8"))).toEqual({ state: "completed", retryCount: 1 });
}

describe.each(testDatabases)("a job interrupted by a crash, on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);

  it.skipIf(skip)("is retried after the restart and completes exactly once", async () => {
    if (variant.name === "pglite") {
      const dataDir = await mkdtemp(path.join(tmpdir(), "vidfetch-jobs-data-"));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      await crashThenResume({ DATA_DIR: dataDir, DATABASE_URL: "" });
      return;
    }
    const database = await open(); // a fresh database with the app's migrations
    const url = database.url!;
    const schema = `pgboss_test_${randomBytes(4).toString("hex")}`;
    try {
      await crashThenResume({ DATABASE_URL: url, JOBS_SCHEMA: schema });
    } finally {
      // before the database itself goes (withTestDatabase's cleanup runs after this test's)
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }, 180_000);
});
