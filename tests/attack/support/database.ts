import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";

/**
 * The attack suites' databases: a fresh PostgreSQL database per server when TEST_DATABASE_URL
 * is set, and read-back of rows from either PostgreSQL or a stopped server's PGlite folder.
 */
export function postgresBaseUrl(): string | null {
  return process.env.TEST_DATABASE_URL || null;
}

export async function createPostgresDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = postgresBaseUrl();
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Rows from the server's database. PGlite is a folder only one process may open, so the server
 * must be stopped first; PostgreSQL can be read at any time.
 */
export async function queryRows<T extends Record<string, unknown>>(where: { dataDir: string; databaseUrl?: string }, sql: string): Promise<T[]> {
  if (where.databaseUrl) {
    const client = new pg.Client({ connectionString: where.databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(where.dataDir, "pglite"));
  try {
    return (await db.query<T>(sql)).rows;
  } finally {
    await db.close();
  }
}
