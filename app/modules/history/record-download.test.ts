import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { users } from "#db/schema/index.ts";
import { testDatabases, type TestDatabase } from "#tests/support/test-db.ts";
import { listHistory } from "./list-history.server.ts";
import { recordDownload } from "./record-download.server.ts";

/** Sizes past 2 GiB (a long 4K or 8K download) are kept exactly, not dropped. */
describe.each(testDatabases)("download history sizes on $name", ({ skip, open, prepare }) => {
  beforeAll(() => (skip ? undefined : prepare()));
  let handle: TestDatabase | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it.skipIf(skip)("stores a 5 GiB file's size exactly and leaves an impossible one unknown", async () => {
    handle = await open();
    await handle.db.insert(users).values({ id: "u-big", name: "Big", email: "big@example.com" });
    const caller = { kind: "premium", plan: "pro", userId: "u-big" } as const;
    const big = 5 * 1024 ** 3 + 7;
    await recordDownload(handle.db, { id: "dl_big", caller, format: "mp4-2160", title: "Long 4K film", bytes: big, complete: true }, new Date(2026, 0, 2));
    await recordDownload(handle.db, { id: "dl_odd", caller, format: "mp4-1080", title: "Odd size", bytes: -1, complete: false }, new Date(2026, 0, 1));
    const page = await listHistory(handle.db, "u-big", 1);
    expect(page.rows.map((r) => [r.title, r.bytes])).toEqual([
      ["Long 4K film", big],
      ["Odd size", null],
    ]);
  });
});
