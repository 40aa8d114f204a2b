import pino from "pino";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { platformRequests } from "#db/schema/index.ts";
import { testDatabases, type TestDatabase } from "#tests/support/test-db.ts";
import { submitPlatformRequest } from "./submit-platform-request.server.ts";

const logger = pino({ level: "silent" });
const input = { platformName: "Bilibili", email: "fan@example.com", details: "Mostly anime clips.", website: "" };

describe.each(testDatabases)("submitPlatformRequest on $name", ({ skip, open, prepare }) => {
  beforeAll(() => (skip ? undefined : prepare()));
  let handle: TestDatabase | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it.skipIf(skip)("stores the request", async () => {
    handle = await open();
    expect(await submitPlatformRequest({ db: handle.db, logger }, input, { ipHash: "h1" })).toEqual({ ok: true, stored: true });
    const rows = await handle.db.select().from(platformRequests);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ platformName: "Bilibili", email: "fan@example.com", details: "Mostly anime clips.", ipHash: "h1" });
  });

  it.skipIf(skip)("stores a request without an email", async () => {
    handle = await open();
    await submitPlatformRequest({ db: handle.db, logger }, { ...input, email: null, details: "" }, { ipHash: null });
    const rows = await handle.db.select().from(platformRequests);
    expect(rows[0]).toMatchObject({ platformName: "Bilibili", email: null, details: "" });
  });

  it.skipIf(skip)("discards honeypot submissions while answering success", async () => {
    handle = await open();
    expect(await submitPlatformRequest({ db: handle.db, logger }, { ...input, website: "x" }, { ipHash: null })).toEqual({ ok: true, stored: false });
    expect(await handle.db.select().from(platformRequests)).toHaveLength(0);
  });

  it.skipIf(skip)("reports a database failure", async () => {
    handle = await open();
    await handle.close();
    expect(await submitPlatformRequest({ db: handle.db, logger }, input, { ipHash: null })).toEqual({ ok: false, code: "platform_request.store_failed" });
  });
});
