import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { recordingLogger } from "#tests/support/route-context.ts";
import { createMailer } from "./mailer.server.ts";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

test("without SMTP_URL each message is an .eml file in the outbox, owner-only, and a log line naming it", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "vidfetch-outbox-"));
  dirs.push(dir);
  const outboxDir = path.join(dir, "outbox");
  const { logger, lines } = recordingLogger();
  const mailer = createMailer({ from: "VidFetch <no-reply@localhost>", outboxDir, logger });
  await mailer.send({ to: "ada@example.com", subject: "Reset your VidFetch password", text: "Open http://localhost:3000/reset-password?token=abc" });
  const files = await readdir(outboxDir);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/\.eml$/);
  const file = path.join(outboxDir, files[0]!);
  const eml = await readFile(file, "utf8");
  expect(eml).toMatch(/^From: VidFetch <no-reply@localhost>$/m);
  expect(eml).toMatch(/^To: ada@example.com$/m);
  expect(eml).toMatch(/^Subject: Reset your VidFetch password$/m);
  expect(eml).toContain("http://localhost:3000/reset-password?token=abc");
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect(lines.some((l) => l.file === file)).toBe(true);
});

test("a white-labelled message keeps the site's address under the sender name it was given, quoted where it must be", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "vidfetch-outbox-"));
  dirs.push(dir);
  const outboxDir = path.join(dir, "outbox");
  const { logger } = recordingLogger();
  const mailer = createMailer({ from: "VidFetch <no-reply@localhost>", outboxDir, logger });
  await mailer.send({ to: "ada@example.com", subject: "Your download is ready", text: "ready", fromName: "Acme Media, Inc." });
  const [file] = await readdir(outboxDir);
  const eml = await readFile(path.join(outboxDir, file!), "utf8");
  expect(eml).toMatch(/^From: "Acme Media, Inc\." <no-reply@localhost>$/m);
  expect(eml).not.toContain("VidFetch");
  // a bare address as the site's From works the same
  const bare = createMailer({ from: "no-reply@localhost", outboxDir: path.join(dir, "bare"), logger });
  await bare.send({ to: "ada@example.com", subject: "s", text: "t", fromName: "Acme" });
  const [other] = await readdir(path.join(dir, "bare"));
  expect(await readFile(path.join(dir, "bare", other!), "utf8")).toMatch(/^From: Acme <no-reply@localhost>$/m);
});
