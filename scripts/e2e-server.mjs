#!/usr/bin/env node
// The server Playwright starts: a fresh data folder, the mock platform, and (when
// TEST_DATABASE_URL is set) a fresh PostgreSQL database the tests can read rows back from.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureStartEnv } from "./start-env.mjs";

// npm start's environment (MALLOC_ARENA_MAX), set by replacing this process before it does
// anything (creating the database below twice would fail)
ensureStartEnv();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "vidfetch-e2e-"));
process.env.MOCKS ??= "true";
process.env.LOG_LEVEL ??= "warn";
// Forms and downloads are exercised many times in a row by the tests.
process.env.POST_RATE_LIMIT_PER_MINUTE ??= "1000";
process.env.RESOLVE_RATE_LIMIT_PER_MINUTE ??= "1000";
// Every e2e account is created from 127.0.0.1.
process.env.ACCOUNT_IP_LIMIT_SCALE ??= "100";
// the account tests/e2e/admin.spec.ts signs up as (the operators' area, /admin)
process.env.ADMIN_EMAIL ??= "admin@example.com";

const base = process.env.TEST_DATABASE_URL;
if (base && process.env.E2E_DB_NAME) {
  const pg = (await import("pg")).default;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${process.env.E2E_DB_NAME}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${process.env.E2E_DB_NAME}`;
  process.env.DATABASE_URL = url.toString();
}
// Mail goes out over real SMTP to a local server that files each message in E2E_MAILBOX_DIR,
// where the tests read password-reset and verification links.
if (process.env.E2E_MAILBOX_DIR) {
  const { register } = await import("tsx/esm/api");
  const unregister = register();
  const { startSmtpSink } = await import(pathToFileURL(path.join(root, "tests/support/smtp-sink.ts")).href);
  const sink = await startSmtpSink({ dir: process.env.E2E_MAILBOX_DIR });
  await unregister();
  process.env.SMTP_URL = sink.url;
}

// Facebook and Instagram links resolve through a fake yt-dlp that describes videos on the mock
// platform (the real one would need the internet); the engine then fetches them like any media.
if (!process.env.YTDLP_PATH) {
  const { register } = await import("tsx/esm/api");
  const unregister = register();
  const { writeFakeYtdlp, mockPlatformDocuments } = await import(pathToFileURL(path.join(root, "tests/mocks/ytdlp.ts")).href);
  const fake = await writeFakeYtdlp({ type: "by-link", documents: mockPlatformDocuments("media.example.test") });
  await unregister();
  process.env.YTDLP_PATH = fake.path;
}

await import(pathToFileURL(path.join(root, "scripts/start.mjs")).href);
