import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { contactMessages } from "#db/schema/index.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import type { MailMessage } from "#app/modules/account/mailer.server.ts";
import { submitContactMessage } from "./submit-contact-message.server.ts";

const logger = pino({ level: "silent" });
const input = { name: "Ada", email: "ada@example.com", subject: "", message: "Please add Vimeo.", website: "" };

describe.each(testDatabases)("submitContactMessage on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)("stores the message with the hashed address", async () => {
    handle = await open();
    const result = await submitContactMessage({ db: handle.db, logger }, input, { ipHash: "abc123" });
    expect(result).toMatchObject({ ok: true, stored: true });
    const rows = await handle.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Ada", email: "ada@example.com", subject: "", message: "Please add Vimeo.", ipHash: "abc123" });
    expect(rows[0]?.createdAt).toBeInstanceOf(Date);
  });

  it.skipIf(skip)("mails the stored message to CONTACT_EMAIL, with replies going to the visitor", async () => {
    handle = await open();
    const sent: MailMessage[] = [];
    const inbox = { mailer: { send: async (m: MailMessage) => void sent.push(m) }, contactEmail: "team@vidfetch.example", logger };
    const result = await submitContactMessage({ db: handle.db, logger, inbox }, { ...input, subject: "Vimeo?" }, { ipHash: null });
    expect(result.ok && (await result.mailed)).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: "team@vidfetch.example", replyTo: "ada@example.com", subject: "Contact form: Vimeo?" });
    expect(sent[0]!.text).toContain("Please add Vimeo.");
    expect(sent[0]!.text).toContain("Ada <ada@example.com>");
  });

  it.skipIf(skip)("without CONTACT_EMAIL, or when the mail fails, the message is still stored and the visitor told it was sent", async () => {
    handle = await open();
    const failing = { mailer: { send: async () => Promise.reject(new Error("SMTP down")) }, contactEmail: "team@vidfetch.example", logger };
    const unset = { mailer: { send: async () => Promise.reject(new Error("must not be called")) }, contactEmail: undefined, logger };
    for (const inbox of [failing, unset]) {
      const result = await submitContactMessage({ db: handle.db, logger, inbox }, input, { ipHash: null });
      expect(result).toMatchObject({ ok: true, stored: true });
      expect(result.ok && (await result.mailed)).toBe(false);
    }
    expect(await handle.db.select().from(contactMessages)).toHaveLength(2);
  });

  it.skipIf(skip)("marks a Pro or Ultimate member's message priority with their plan, and sends Ultimate's to SUPPORT_ULTIMATE_EMAIL when set", async () => {
    handle = await open();
    const sent: MailMessage[] = [];
    const inbox = { mailer: { send: async (m: MailMessage) => void sent.push(m) }, contactEmail: "team@vidfetch.example", ultimateEmail: "accounts@vidfetch.example", logger };
    const senders = [null, { plan: "free" as const }, { plan: "basic" as const }, { plan: "pro" as const }, { plan: "ultimate" as const }];
    for (const sender of senders) {
      const result = await submitContactMessage({ db: handle.db, logger, inbox }, { ...input, name: sender?.plan ?? "visitor" }, { ipHash: null, sender });
      expect(result.ok && (await result.mailed)).toBe(true);
    }
    const rows = await handle.db.select().from(contactMessages);
    expect(rows.map((r) => [r.name, r.plan, r.priority])).toEqual([
      ["visitor", null, false],
      ["free", "free", false],
      ["basic", "basic", false],
      ["pro", "pro", true],
      ["ultimate", "ultimate", true],
    ]);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      ["team@vidfetch.example", "Contact form: (no subject)"],
      ["team@vidfetch.example", "Contact form: (no subject)"],
      ["team@vidfetch.example", "Contact form: (no subject)"],
      ["team@vidfetch.example", "[Priority · Pro] Contact form: (no subject)"],
      ["accounts@vidfetch.example", "[Priority · Ultimate] Contact form: (no subject)"],
    ]);
    // without the Ultimate address, Ultimate's message goes to CONTACT_EMAIL like the others
    const plain = { ...inbox, ultimateEmail: undefined };
    const result = await submitContactMessage({ db: handle.db, logger, inbox: plain }, input, { ipHash: null, sender: { plan: "ultimate" } });
    expect(result.ok && (await result.mailed)).toBe(true);
    expect(sent.at(-1)?.to).toBe("team@vidfetch.example");
  });

  it.skipIf(skip)("answers a filled honeypot with success and stores nothing", async () => {
    handle = await open();
    const result = await submitContactMessage({ db: handle.db, logger }, { ...input, website: "https://spam.example" }, { ipHash: null });
    expect(result).toEqual({ ok: true, stored: false });
    expect(await handle.db.select().from(contactMessages)).toHaveLength(0);
  });

  it.skipIf(skip)("returns an error when the database fails, instead of a false success", async () => {
    handle = await open();
    await handle.close();
    const result = await submitContactMessage({ db: handle.db, logger }, input, { ipHash: null });
    expect(result).toEqual({ ok: false, code: "contact.store_failed" });
  });
});

describe.each(testDatabases)("submitContactMessage logging on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);

  it.skipIf(skip)("logs a failed write by id and database code, never the message's content", async () => {
    const handle = await open();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    try {
      // PostgreSQL refuses a NUL byte in text: a real failed insert carrying personal data
      const hostile = { ...input, email: "grace@example.com", message: "private words\u0000here" };
      const result = await submitContactMessage({ db: handle.db, logger: pino(stream) }, hostile, { ipHash: null });
      expect(result).toEqual({ ok: false, code: "contact.store_failed" });
      const log = lines.join("");
      expect(log).toMatch(/"id":"[0-9a-f-]{36}"/);
      expect(log).toContain('"dbCode":"22021"');
      expect(log).not.toContain("grace@example.com");
      expect(log).not.toContain("private words");
    } finally {
      await handle.dispose();
    }
  });
});
