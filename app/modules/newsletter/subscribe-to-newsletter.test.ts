import pino from "pino";
import { describe, expect, it } from "vitest";
import { newsletterSubscribers } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { newsletterSchema, NEWSLETTER_MESSAGES } from "./newsletter-schema.ts";
import { subscribeToNewsletter } from "./subscribe-to-newsletter.server.ts";

const logger = pino({ level: "silent" });

describe("newsletter schema", () => {
  it("normalises the address", () => {
    expect(newsletterSchema.parse({ email: "  Reader@Example.COM " })).toEqual({ email: "reader@example.com", website: "" });
  });

  it.each([undefined, "", "   ", "reader", "reader@", "@example.com"])("rejects %j with the spec-style message", (email) => {
    const r = newsletterSchema.safeParse({ email });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(NEWSLETTER_MESSAGES.invalidEmail);
  });
});

describe.each(testDatabases)("subscribeToNewsletter on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)("stores a new subscriber", async () => {
    handle = await open();
    const r = await subscribeToNewsletter({ db: handle.db, logger }, newsletterSchema.parse({ email: "reader@example.com" }));
    expect(r).toEqual({ ok: true, created: true });
    const rows = await handle.db.select().from(newsletterSubscribers);
    expect(rows.map((x) => [x.email, x.source])).toEqual([["reader@example.com", "blog"]]);
  });

  it.skipIf(skip)("is idempotent for a repeated address, whatever its case and spacing", async () => {
    handle = await open();
    const deps = { db: handle.db, logger };
    await subscribeToNewsletter(deps, newsletterSchema.parse({ email: "reader@example.com" }));
    const again = await subscribeToNewsletter(deps, newsletterSchema.parse({ email: " READER@example.com" }));
    expect(again).toEqual({ ok: true, created: false });
    expect(await handle.db.select().from(newsletterSubscribers)).toHaveLength(1);
  });

  it.skipIf(skip)("stores nothing for a filled honeypot", async () => {
    handle = await open();
    const r = await subscribeToNewsletter({ db: handle.db, logger }, newsletterSchema.parse({ email: "bot@example.com", website: "http://x" }));
    expect(r).toEqual({ ok: true, created: false });
    expect(await handle.db.select().from(newsletterSubscribers)).toHaveLength(0);
  });

  it.skipIf(skip)("reports a database failure", async () => {
    handle = await open();
    await handle.close();
    const r = await subscribeToNewsletter({ db: handle.db, logger }, newsletterSchema.parse({ email: "reader@example.com" }));
    expect(r).toEqual({ ok: false, code: "newsletter.store_failed" });
  });
});
