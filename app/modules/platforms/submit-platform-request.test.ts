import pino from "pino";
import { describe, expect, it } from "vitest";
import { platformRequests } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import type { MailMessage } from "#app/modules/account/mailer.server.ts";
import { submitPlatformRequest } from "./submit-platform-request.server.ts";

const logger = pino({ level: "silent" });
const input = { platformName: "Bilibili", email: "fan@example.com", details: "Mostly anime clips.", website: "" };

describe.each(testDatabases)("submitPlatformRequest on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)("stores the request", async () => {
    handle = await open();
    expect(await submitPlatformRequest({ db: handle.db, logger }, input, { ipHash: "h1" })).toMatchObject({ ok: true, stored: true });
    const rows = await handle.db.select().from(platformRequests);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ platformName: "Bilibili", email: "fan@example.com", details: "Mostly anime clips.", ipHash: "h1" });
  });

  it.skipIf(skip)("mails the stored request to CONTACT_EMAIL, replies going to the visitor when they left an address", async () => {
    handle = await open();
    const sent: MailMessage[] = [];
    const inbox = { mailer: { send: async (m: MailMessage) => void sent.push(m) }, contactEmail: "team@vidfetch.example", logger };
    const first = await submitPlatformRequest({ db: handle.db, logger, inbox }, input, { ipHash: null });
    const second = await submitPlatformRequest({ db: handle.db, logger, inbox }, { ...input, email: null }, { ipHash: null });
    expect(first.ok && (await first.mailed)).toBe(true);
    expect(second.ok && (await second.mailed)).toBe(true);
    expect(sent[0]).toMatchObject({ to: "team@vidfetch.example", subject: "Platform request: Bilibili", replyTo: "fan@example.com" });
    expect(sent[0]!.text).toContain("Mostly anime clips.");
    expect(sent[1]!.replyTo).toBeUndefined();
    expect(sent[1]!.text).toContain("They left no address.");
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
