import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { fileURLToPath } from "node:url";
import type { PGlite, PGliteInterface } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import * as schema from "./schema/index.ts";

export { schema };

/** One type for both drivers: PGlite (embedded) and node-postgres (a server). Same dialect. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  driver: "pglite" | "postgres";
  /** the embedded database's one PGlite instance (driver "pglite"): the job runner shares it */
  pglite?: PGliteInterface;
  /** cheap round trip for /readyz */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * Open the database the configuration names and apply the committed migrations.
 * `DATABASE_URL` set → PostgreSQL server; otherwise PGlite stored in `dataDir/pglite`
 * (`dataDir: null` keeps it in memory, for tests).
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string | null; onPoolError?: (err: Error) => void }): Promise<DatabaseHandle> {
  const handle = opts.databaseUrl ? await openPostgres(opts.databaseUrl, opts) : await openPglite(opts.dataDir);
  await handle.migrate();
  return handle;
}

/**
 * V8 compiles PGlite's WebAssembly (Postgres) twice by default: at once with its baseline
 * compiler, then the hot functions again with its optimising one, and keeps both. Baseline
 * only: ~40 MB less resident memory, and queries measured no slower on this database
 * (docs/decisions/019). Set before the module is compiled; it applies to this process's
 * WebAssembly, which on the server is PGlite alone.
 */
export const PGLITE_V8_FLAGS = "--liftoff-only";

async function openPglite(dataDir: string | null): Promise<DatabaseHandle & { migrate(): Promise<void> }> {
  setFlagsFromString(PGLITE_V8_FLAGS);
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(path.resolve(dataDir), "pglite");
    await mkdir(dir, { recursive: true });
  }
  if (dir) await createPgliteCluster(dir);
  const options = { postgresqlconf: PGLITE_SETTINGS };
  const client = dir ? new PGlite(dir, options) : new PGlite(options);
  return fromPglite(client, { drizzle, migrate });
}

/**
 * Postgres settings of the embedded database. Its shared buffers live inside the process
 * (WebAssembly memory): Postgres's default of 128 MB was most of an idle server's resident
 * memory, while this database's hot pages fit in a few MB (docs/decisions/019).
 */
export const PGLITE_SETTINGS = ["shared_buffers=16MB"];

/**
 * A new data folder is created (initdb, in WebAssembly) by a short-lived child process: doing
 * it in the server left about 600 MB of initdb's memory in the process until a full garbage
 * collection that an idle server never runs (docs/decisions/019).
 */
async function createPgliteCluster(dir: string): Promise<void> {
  if (existsSync(path.join(dir, "PG_VERSION"))) return;
  const script = `const { PGlite } = await import(${JSON.stringify(import.meta.resolve("@electric-sql/pglite"))});
const db = new PGlite(process.argv[1]);
await db.waitReady;
await db.close();`;
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script, dir], { timeout: 300_000 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`creating the embedded database in ${dir} failed: ${stderr.trim() || err.message}`));
      else resolve();
    });
  });
}

function fromPglite(client: PGlite | PGliteInterface, mods: { drizzle: typeof drizzlePglite; migrate: typeof migratePglite }) {
  const db = mods.drizzle({ client: client as PGlite, schema });
  return {
    db: db as unknown as Database,
    driver: "pglite" as const,
    pglite: client,
    migrate: () => mods.migrate(db, { migrationsFolder }),
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, opts: { onPoolError?: (err: Error) => void } = {}): Promise<DatabaseHandle & { migrate(): Promise<void> }> {
  const pg = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new pg.default.Pool({ connectionString: url, max: 10 });
  // An idle-client error (server restart) must not crash the process: report it to the host.
  pool.on("error", (err) => opts.onPoolError?.(err));
  const db = drizzle({ client: pool, schema });
  return {
    db: db as unknown as Database,
    driver: "postgres",
    migrate: () => migrate(db, { migrationsFolder }),
    ping: async () => {
      await pool.query("select 1");
    },
    close: () => pool.end(),
  };
}

/**
 * Tests: a fresh, migrated in-memory PGlite per call, cloned from one migrated template so
 * each test starts clean without paying for the migrations again.
 */
let template: Promise<PGlite> | undefined;
export async function openTestPglite(): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  template ??= (async () => {
    const base = new PGlite();
    await migrate(drizzle({ client: base, schema }), { migrationsFolder });
    return base;
  })();
  const clone = await (await template).clone();
  return fromPglite(clone, { drizzle, migrate });
}
