import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll } from "vitest";
import { openDatabase, openTestPglite, type DatabaseHandle } from "#db/client.ts";

/**
 * The databases data tests run against: always a fresh in-memory PGlite, and a real PostgreSQL
 * server when TEST_DATABASE_URL is set (a fresh database per test, dropped afterwards).
 *
 *   describe.each(testDatabases)("store contact message on $name", (variant) => {
 *     const { skip, open } = withTestDatabase(variant);
 *     it.skipIf(skip)("...", async () => { const handle = await open(); ... });
 *   });
 */
export interface TestDatabase extends DatabaseHandle {
  /** PostgreSQL: the fresh database's URL (for a second connection, such as the job runner's pool) */
  url?: string;
  /** close the connection and, for PostgreSQL, drop the database (idempotent) */
  dispose(): Promise<void>;
}

export interface TestDatabaseVariant {
  name: "pglite" | "postgres";
  /** true when this variant cannot run here (PostgreSQL without TEST_DATABASE_URL) */
  skip: boolean;
  open(): Promise<TestDatabase>;
  /**
   * One-time setup for a test file (call from beforeAll, whose timeout is longer than a test's):
   * PGlite migrates its template here, so the first test is not slower than the rest.
   */
  prepare(): Promise<void>;
}

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

let noticePrinted = false;
function printNoticeOnce() {
  if (noticePrinted || postgresUrl) return;
  noticePrinted = true;
  console.log("[notice] TEST_DATABASE_URL is not set: data tests run on PGlite only; the PostgreSQL variant is skipped");
}

async function openPglite(): Promise<TestDatabase> {
  const handle = await openTestPglite();
  let disposed = false;
  return {
    ...handle,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await handle.close().catch((err: unknown) => {
        // Tests that simulate an outage close the handle themselves; a second close is expected to fail.
        if (!(err instanceof Error && /closed/i.test(err.message))) throw err;
      });
    },
  };
}

function withDatabase(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function openPostgres(): Promise<TestDatabase> {
  if (!postgresUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `vidfetch_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(postgresUrl, name);
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ databaseUrl: url, dataDir: null });
  } catch (err) {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    throw err;
  }
  let disposed = false;
  return {
    ...handle,
    url,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await handle.close().catch((err: unknown) => {
        if (!(err instanceof Error && /end/i.test(err.message))) throw err;
      });
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

printNoticeOnce();

export const testDatabases: TestDatabaseVariant[] = [
  { name: "pglite", skip: false, open: openPglite, prepare: async () => (await openPglite()).dispose() },
  { name: "postgres", skip: !postgresUrl, open: openPostgres, prepare: async () => {} },
];

export interface TestDatabaseBlock {
  name: TestDatabaseVariant["name"];
  skip: boolean;
  /** a fresh database, disposed of after the test that opened it */
  open(): Promise<TestDatabase>;
  /** a fresh database for the whole block (open it in beforeAll), disposed of after its last test */
  openShared(): Promise<TestDatabase>;
}

/**
 * The setup every block of `describe.each(testDatabases)` needs, in one place: the variant is
 * prepared once before the block's tests, and each database opened through the returned
 * functions is disposed of even when its test failed. The hooks are registered first, so under
 * Vitest's stacked after-hooks the block's own cleanup (servers using the database) runs before
 * the database goes.
 */
export function withTestDatabase(variant: TestDatabaseVariant): TestDatabaseBlock {
  const perTest: TestDatabase[] = [];
  const perBlock: TestDatabase[] = [];
  const disposeAll = async (opened: TestDatabase[]) => {
    for (const handle of opened.splice(0)) await handle.dispose();
  };
  beforeAll(() => (variant.skip ? undefined : variant.prepare()));
  afterEach(() => disposeAll(perTest));
  afterAll(() => disposeAll(perBlock));
  const openInto = (opened: TestDatabase[]) => async () => {
    const handle = await variant.open();
    opened.push(handle);
    return handle;
  };
  return { name: variant.name, skip: variant.skip, open: openInto(perTest), openShared: openInto(perBlock) };
}
