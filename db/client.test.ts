import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, test } from "vitest";
import { openDatabase, openTestPglite, schema } from "./client.ts";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("embedded PGlite", () => {
  test("data written before a restart is there after it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "vidfetch-db-"));
    dirs.push(dir);
    const first = await openDatabase({ dataDir: dir });
    await first.db.insert(schema.contactMessages).values({ name: "Ada", email: "ada@example.com", message: "Hello" });
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    const rows = await second.db.select().from(schema.contactMessages);
    await second.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Ada", email: "ada@example.com", message: "Hello", subject: "" });
  });

  test("each test database starts empty and migrated", async () => {
    const a = await openTestPglite();
    await a.db.insert(schema.newsletterSubscribers).values({ email: "one@example.com" });
    const b = await openTestPglite();
    expect(await b.db.select().from(schema.newsletterSubscribers)).toHaveLength(0);
    expect(await a.db.select().from(schema.newsletterSubscribers)).toHaveLength(1);
    await Promise.all([a.close(), b.close()]);
  });

  test("newsletter emails are unique", async () => {
    const h = await openTestPglite();
    await h.db.insert(schema.newsletterSubscribers).values({ email: "dup@example.com" });
    await expect(h.db.insert(schema.newsletterSubscribers).values({ email: "dup@example.com" })).rejects.toThrow();
    await h.close();
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.log("[notice] TEST_DATABASE_URL is not set: skipping the PostgreSQL variant of db/client.test.ts");

describe.skipIf(!pgUrl)("PostgreSQL server", () => {
  test("migrations apply to a fresh database and data survives reconnecting", async () => {
    const name = `vidfetch_db_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(pgUrl!);
    url.pathname = `/${name}`;
    try {
      const first = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
      expect(first.driver).toBe("postgres");
      await first.db.insert(schema.platformRequests).values({ platformName: "Vimeo", details: "please" });
      await first.close();
      // applying the migrations again is a no-op
      const second = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
      const rows = await second.db.select().from(schema.platformRequests).where(eq(schema.platformRequests.platformName, "Vimeo"));
      await second.ping();
      await second.close();
      expect(rows).toHaveLength(1);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
