import pg from "pg";
import { test } from "@playwright/test";

/**
 * The e2e server's database, for reading back what a form stored. Available when
 * TEST_DATABASE_URL points at a PostgreSQL server (CI sets it); the embedded PGlite the server
 * would otherwise use cannot be opened by a second process.
 */
export function e2eDatabaseUrl(): string | null {
  const base = process.env.TEST_DATABASE_URL;
  const name = process.env.E2E_DB_NAME;
  if (!base || !name) return null;
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function queryE2eDatabase<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const url = e2eDatabaseUrl();
  if (!url) throw new Error("TEST_DATABASE_URL is not set");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Skip a test that reads the database back when no PostgreSQL is configured, saying why. */
export function requireE2eDatabase() {
  if (!e2eDatabaseUrl()) {
    console.log("[notice] TEST_DATABASE_URL is not set: skipping the database read-back in this e2e test");
  }
  test.skip(!e2eDatabaseUrl(), "needs TEST_DATABASE_URL (PostgreSQL) to read rows back");
}
