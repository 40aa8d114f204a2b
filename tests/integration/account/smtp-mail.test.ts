import pino from "pino";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createMailer } from "#app/modules/account/mailer.server.ts";
import { mailText, startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink.ts";

/** With SMTP_URL set, mail goes out over SMTP (here to a local server) and nothing is written to the outbox. */
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

test("a message sent through SMTP_URL arrives at the SMTP server whole", async () => {
  const mailer = createMailer({ smtpUrl: sink.url, from: "VidFetch <no-reply@vidfetch.test>", outboxDir: "/nonexistent/outbox", logger: pino({ level: "silent" }) });
  const link = `http://localhost:3000/reset-password?token=${"t".repeat(90)}`;
  await mailer.send({ to: "Ada@Example.com", subject: "Reset your VidFetch password", text: `Open this link to choose a new password:\n${link}\n` });
  expect(sink.messages).toHaveLength(1);
  const [message] = sink.messages;
  expect(message!.to).toEqual(["ada@example.com"]);
  expect(message!.raw).toMatch(/^From: VidFetch <no-reply@vidfetch\.test>\r?$/m);
  expect(message!.raw).toMatch(/^Subject: Reset your VidFetch password\r?$/m);
  expect(mailText(message!.raw)).toContain(link);
});

test("an unreachable SMTP server is an error the caller sees, not a silent loss", async () => {
  const closed = await startSmtpSink();
  await closed.close();
  const mailer = createMailer({ smtpUrl: closed.url, from: "VidFetch <no-reply@vidfetch.test>", outboxDir: "/nonexistent/outbox", logger: pino({ level: "silent" }) });
  await expect(mailer.send({ to: "ada@example.com", subject: "x", text: "y" })).rejects.toThrow();
});
