import { sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { newsletterSubscribers } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { newsletterSchema, NEWSLETTER_MESSAGES } from "./newsletter-schema.ts";
import { pruneUnconfirmed, subscribeToNewsletter } from "./subscribe-to-newsletter.server.ts";

const logger = pino({ level: "silent" });
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const T0 = new Date("2026-11-26T12:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

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
  const subscribe = (email: string, now = T0, website = "") => subscribeToNewsletter({ db: handle!.db, logger }, newsletterSchema.parse({ email, website }), { now });

  it.skipIf(skip)("stores a new address unconfirmed and asks for its confirmation mail", async () => {
    handle = await open();
    const r = await subscribe("reader@example.com");
    const rows = await handle.db.select().from(newsletterSubscribers);
    expect(rows.map((x) => [x.email, x.source, x.confirmedAt, x.confirmSentAt?.toISOString()])).toEqual([["reader@example.com", "blog", null, T0.toISOString()]]);
    expect(r).toEqual({ ok: true, confirm: { id: rows[0]!.id, email: "reader@example.com" } });
  });

  it.skipIf(skip)("a repeat keeps one row, whatever its case and spacing, and mails again at most once an hour", async () => {
    handle = await open();
    const first = await subscribe("reader@example.com");
    expect(await subscribe(" READER@example.com", at(59 * 60 * 1000))).toEqual({ ok: true, confirm: null });
    const later = await subscribe("reader@example.com", at(HOUR + 1));
    expect(later).toEqual(first);
    expect(await subscribe("reader@example.com", at(HOUR + 2))).toEqual({ ok: true, confirm: null });
    expect(await handle.db.select().from(newsletterSubscribers)).toHaveLength(1);
  });

  it.skipIf(skip)("concurrent repeats mail one link", async () => {
    handle = await open();
    const results = await Promise.all(Array.from({ length: 5 }, () => subscribe("reader@example.com")));
    expect(results.filter((r) => r.ok && r.confirm !== null)).toHaveLength(1);
  });

  it.skipIf(skip)("a confirmed address is never mailed a confirmation again", async () => {
    handle = await open();
    await subscribe("reader@example.com");
    await handle.db.update(newsletterSubscribers).set({ confirmedAt: T0 });
    expect(await subscribe("reader@example.com", at(2 * DAY))).toEqual({ ok: true, confirm: null });
  });

  it.skipIf(skip)("deletes addresses nobody confirmed within the window of their last link, on the next subscription", async () => {
    handle = await open();
    await subscribe("stale@example.com");
    await subscribe("resent@example.com");
    await subscribe("resent@example.com", at(3 * DAY));
    await subscribe("confirmed@example.com");
    await handle.db.update(newsletterSubscribers).set({ confirmedAt: T0 }).where(eqEmail("confirmed@example.com"));
    // a row from before double opt-in: no confirmation mail was ever sent
    await handle.db.insert(newsletterSubscribers).values({ email: "legacy@example.com", createdAt: at(-30 * DAY) });
    await subscribe("new@example.com", at(7 * DAY + 1));
    const left = (await handle.db.select().from(newsletterSubscribers)).map((r) => r.email).sort();
    expect(left).toEqual(["confirmed@example.com", "new@example.com", "resent@example.com"]);
  });

  it.skipIf(skip)("the sweep's forced prune keeps what is inside the window", async () => {
    handle = await open();
    await subscribe("reader@example.com");
    await pruneUnconfirmed(handle.db, at(7 * DAY - 1), { force: true });
    expect(await handle.db.$count(newsletterSubscribers)).toBe(1);
    await pruneUnconfirmed(handle.db, at(7 * DAY + 1), { force: true });
    expect(await handle.db.$count(newsletterSubscribers)).toBe(0);
  });

  it.skipIf(skip)("stores nothing and mails nobody for a filled honeypot", async () => {
    handle = await open();
    expect(await subscribe("bot@example.com", T0, "http://x")).toEqual({ ok: true, confirm: null });
    expect(await handle.db.select().from(newsletterSubscribers)).toHaveLength(0);
  });

  it.skipIf(skip)("reports a database failure", async () => {
    handle = await open();
    await handle.close();
    expect(await subscribe("reader@example.com")).toEqual({ ok: false, code: "newsletter.store_failed" });
  });
});

function eqEmail(email: string) {
  return sql`${newsletterSubscribers.email} = ${email}`;
}
