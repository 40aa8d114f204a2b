import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryLimiter } from "#app/lib/attempt-limiter.server.ts";
import { settleBackgroundWork } from "#app/modules/account/background-work.server.ts";
import { createMailer } from "#app/modules/account/mailer.server.ts";
import { action as subscribe } from "#app/routes/newsletter.ts";
import { action as confirmAction, loader as confirmLoader } from "#app/routes/newsletter-confirm.tsx";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "#app/routes/newsletter-unsubscribe.tsx";
import type { Database } from "#db/client.ts";
import { newsletterSubscribers } from "#db/schema/index.ts";
import { mailboxFor, mailText } from "#tests/support/smtp-sink.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

/**
 * Subscribe → the confirmation mail in the outbox (DATA_DIR/outbox without SMTP) → its confirm
 * link → its unsubscribe link, both as the page's button and as a mail client's one-click POST
 * (RFC 8058), through the route modules and the real mailer.
 */
const PUBLIC_URL = "https://vidfetch.example";
const logger = pino({ level: "silent" });
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function site(db: Database) {
  const dir = await mkdtemp(path.join(tmpdir(), "vidfetch-newsletter-"));
  dirs.push(dir);
  const outbox = path.join(dir, "outbox");
  const context = {
    db,
    logger,
    clientIp: "203.0.113.7",
    config: { DOWNLOAD_SIGNING_SECRET: "flow-secret-flow-secret-flow-secret-12345" },
    publicConfig: { publicUrl: PUBLIC_URL, siteName: "VidFetch" },
    mailer: createMailer({ from: "VidFetch <no-reply@vidfetch.example>", outboxDir: outbox, logger }),
    accounts: { limiter: createMemoryLimiter() },
  };
  const call = (fn: (args: never) => unknown, request: Request) => fn({ request, context, params: {} } as never) as Promise<unknown>;
  /** the mails to one address: raw text (headers unfolded) and body */
  const mails = async (to: string) => {
    await settleBackgroundWork();
    return mailboxFor(outbox, to).map((raw) => ({ head: raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " "), body: mailText(raw) }));
  };
  return { call, mails };
}

const postJson = (body: unknown) =>
  new Request(`${PUBLIC_URL}/newsletter`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", accept: "application/json" } });
const get = (url: string) => new Request(url);
const pressButton = (url: string) => new Request(url, { method: "POST", body: new URLSearchParams(), headers: { origin: PUBLIC_URL } });
/** what a mail provider sends for List-Unsubscribe-Post (RFC 8058 §3.2): no cookie, no form token */
const oneClick = (url: string) => new Request(url, { method: "POST", body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) });

describe.each(testDatabases)("the newsletter's double opt-in on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;
  const row = async () => (await handle!.db.select().from(newsletterSubscribers))[0];

  it.skipIf(skip)("subscribe, confirm from the mail, then unsubscribe with one click", async () => {
    handle = await open();
    const { call, mails } = await site(handle.db);
    await call(subscribe, postJson({ email: "Reader@Example.com", website: "" }));
    const [mail, ...more] = await mails("reader@example.com");
    expect(more).toEqual([]);
    expect(mail!.head).toMatch(/^Subject: Confirm your VidFetch newsletter subscription$/m);
    expect(mail!.head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const unsubscribeUrl = /^List-Unsubscribe: <([^>]+)>$/m.exec(mail!.head)?.[1] ?? "";
    expect(unsubscribeUrl).toMatch(/^https:\/\/vidfetch\.example\/newsletter\/unsubscribe\?token=/);
    // the same link in the text, for readers whose client shows no button
    expect(mail!.body).toContain(unsubscribeUrl);
    const confirmUrl = /https:\/\/vidfetch\.example\/newsletter\/confirm\?token=\S+/.exec(mail!.body)?.[0] ?? "";
    expect(confirmUrl).not.toBe("");

    // opening the link (or a scanner prefetching it) shows the button and changes nothing
    expect(await call(confirmLoader, get(confirmUrl))).toEqual({ state: "unconfirmed", email: "reader@example.com" });
    expect((await row())?.confirmedAt).toBeNull();
    expect(await call(confirmAction, pressButton(confirmUrl))).toEqual({ state: "confirmed", email: "reader@example.com", done: true });
    expect((await row())?.confirmedAt).toBeInstanceOf(Date);
    expect(await call(confirmLoader, get(confirmUrl))).toEqual({ state: "confirmed", email: "reader@example.com" });

    expect(await call(unsubscribeLoader, get(unsubscribeUrl))).toEqual({ state: "confirmed", email: "reader@example.com" });
    expect(await row()).toBeDefined();
    expect(await call(unsubscribeAction, oneClick(unsubscribeUrl))).toEqual({ state: "gone", email: "reader@example.com", done: true });
    expect(await row()).toBeUndefined();
    // the link still opens a page, which says so; pressing again is harmless
    expect(await call(unsubscribeLoader, get(unsubscribeUrl))).toEqual({ state: "gone" });
    expect(await call(unsubscribeAction, oneClick(unsubscribeUrl))).toEqual({ state: "gone", done: true });
    expect(await call(confirmLoader, get(confirmUrl))).toEqual({ state: "gone" });
  });

  it.skipIf(skip)("the unsubscribe page's button removes an address that was never confirmed", async () => {
    handle = await open();
    const { call, mails } = await site(handle.db);
    await call(subscribe, postJson({ email: "someone-else@example.com" }));
    const [mail] = await mails("someone-else@example.com");
    const unsubscribeUrl = /^List-Unsubscribe: <([^>]+)>$/m.exec(mail!.head)?.[1] ?? "";
    expect(await call(unsubscribeLoader, get(unsubscribeUrl))).toEqual({ state: "unconfirmed", email: "someone-else@example.com" });
    expect(await call(unsubscribeAction, pressButton(unsubscribeUrl))).toMatchObject({ state: "gone", done: true });
    expect(await row()).toBeUndefined();
  });

  it.skipIf(skip)("a repeat within the hour sends no second mail; links that were tampered with or swapped do nothing", async () => {
    handle = await open();
    const { call, mails } = await site(handle.db);
    await call(subscribe, postJson({ email: "reader@example.com" }));
    await call(subscribe, postJson({ email: "reader@example.com" }));
    const all = await mails("reader@example.com");
    expect(all).toHaveLength(1);
    const confirmUrl = /https:\/\/vidfetch\.example\/newsletter\/confirm\?token=\S+/.exec(all[0]!.body)?.[0] ?? "";
    const unsubscribeUrl = /^List-Unsubscribe: <([^>]+)>$/m.exec(all[0]!.head)?.[1] ?? "";
    const confirmToken = new URL(confirmUrl).searchParams.get("token")!;
    const unsubscribeToken = new URL(unsubscribeUrl).searchParams.get("token")!;
    const tampered = confirmToken.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect(await call(confirmAction, pressButton(`${PUBLIC_URL}/newsletter/confirm?token=${tampered}`))).toEqual({ state: "invalid", done: true });
    // an unsubscribe link is not a confirm link, nor the other way round
    expect(await call(confirmAction, pressButton(`${PUBLIC_URL}/newsletter/confirm?token=${unsubscribeToken}`))).toEqual({ state: "invalid", done: true });
    expect(await call(unsubscribeAction, oneClick(`${PUBLIC_URL}/newsletter/unsubscribe?token=${confirmToken}`))).toEqual({ state: "invalid", done: true });
    expect(await call(unsubscribeAction, oneClick(`${PUBLIC_URL}/newsletter/unsubscribe`))).toEqual({ state: "invalid", done: true });
    expect(await row()).toMatchObject({ email: "reader@example.com", confirmedAt: null });
  });
});
