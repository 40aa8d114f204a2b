import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabases, withTestDatabase, type TestDatabase } from "./test-db.ts";

// The tests run in order: the second looks at what the first one left behind.
describe.each(testDatabases)("withTestDatabase on $name", (variant) => {
  const { skip, open, openShared } = withTestDatabase(variant);
  let shared: TestDatabase | undefined;
  let fromFirstTest: TestDatabase | undefined;
  beforeAll(async () => {
    if (!skip) shared = await openShared();
  });

  it.skipIf(skip)("opens a fresh database for a test", async () => {
    fromFirstTest = await open();
    expect(await fromFirstTest.db.execute(sql`select 1 as one`)).toBeDefined();
  });

  it.skipIf(skip)("has disposed of the previous test's database, and keeps the block's own until the end", async () => {
    await expect(fromFirstTest!.db.execute(sql`select 1 as one`)).rejects.toThrow();
    expect(await shared!.db.execute(sql`select 1 as one`)).toBeDefined();
  });
});
