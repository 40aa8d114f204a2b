import { describe, expect, it } from "vitest";
import { downloadHistory, users } from "#db/schema/index.ts";
import type { DownloadFinished } from "#engine/index.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { listHistory } from "./list-history.server.ts";
import { pruneHistory, recordDownload } from "./record-download.server.ts";
import { HISTORY_RETENTION_DAYS } from "./retention.ts";

/** Sizes past 2 GiB (a long 4K or 8K download) are kept exactly, not dropped. */
describe.each(testDatabases)("download history sizes on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)("stores a 5 GiB file's size exactly and leaves an impossible one unknown", async () => {
    handle = await open();
    await handle.db.insert(users).values({ id: "u-big", name: "Big", email: "big@example.com" });
    const caller = { kind: "premium", plan: "pro", userId: "u-big" } as const;
    const big = 5 * 1024 ** 3 + 7;
    await recordDownload(handle.db, { id: "dl_big", caller, format: "mp4-2160", title: "Long 4K film", bytes: big, complete: true }, new Date(2026, 0, 2));
    await recordDownload(handle.db, { id: "dl_odd", caller, format: "mp4-1080", title: "Odd size", bytes: -1, complete: false }, new Date(2026, 0, 1));
    const page = await listHistory(handle.db, "u-big", 1, 10, new Date(2026, 0, 3));
    expect(page.rows.map((r) => [r.title, r.bytes])).toEqual([
      ["Long 4K film", big],
      ["Odd size", null],
    ]);
  });
});

/** The privacy policy promises 90 days: older rows are neither shown nor kept. */
describe.each(testDatabases)("download history retention on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)(`shows the last ${HISTORY_RETENTION_DAYS} days and deletes older rows of every user`, async () => {
    handle = await open();
    await handle.db.insert(users).values([
      { id: "u-a", name: "A", email: "a@example.com" },
      { id: "u-b", name: "B", email: "b@example.com" },
    ]);
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);
    const entry = (id: string, userId: string): DownloadFinished => ({ id, caller: { kind: "free", userId }, format: "mp4-720", title: id, bytes: 10, complete: true });
    await recordDownload(handle.db, entry("old-a", "u-a"), day(0));
    await recordDownload(handle.db, entry("old-b", "u-b"), day(1));
    await recordDownload(handle.db, entry("new-a", "u-a"), day(80));
    const today = day(HISTORY_RETENTION_DAYS + 5);
    // not yet pruned: still hidden from the dashboard
    expect((await listHistory(handle.db, "u-a", 1, 10, today)).rows.map((r) => r.id)).toEqual(["new-a"]);
    await pruneHistory(handle.db, today, { force: true });
    const left = await handle.db.select({ id: downloadHistory.id }).from(downloadHistory);
    expect(left.map((r) => r.id)).toEqual(["new-a"]);
  });
});
