import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";
import { createServices, loadAuthSecret, loadSigningSecret } from "./services.ts";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function dataDir() {
  const d = await mkdtemp(path.join(tmpdir(), "vidfetch-secrets-"));
  dirs.push(d);
  return d;
}

test("AUTH_SECRET unset: generated once into DATA_DIR (owner-only), reused after a restart, distinct from the link secret", async () => {
  const dir = await dataDir();
  const config = loadConfig({ DATA_DIR: dir });
  const first = await loadAuthSecret(config);
  expect(first).toMatch(/^[0-9a-f]{64}$/);
  expect((await readFile(path.join(dir, "auth-secret"), "utf8")).trim()).toBe(first);
  expect((await stat(path.join(dir, "auth-secret"))).mode & 0o777).toBe(0o600);
  expect(await loadAuthSecret(config)).toBe(first);
  expect(await loadSigningSecret(config)).not.toBe(first);
});

test("AUTH_SECRET set: used as is, nothing written", async () => {
  const dir = await dataDir();
  const secret = "s".repeat(48);
  expect(await loadAuthSecret(loadConfig({ DATA_DIR: dir, AUTH_SECRET: secret }))).toBe(secret);
  await expect(stat(path.join(dir, "auth-secret"))).rejects.toThrow(/ENOENT/);
});

test.each(["AUTH_SECRET", "DOWNLOAD_SIGNING_SECRET"] as const)("REDIS_URL set and %s unset: refuses to start, naming the variable, and writes nothing", async (variable) => {
  const dir = await dataDir();
  const both = { AUTH_SECRET: "a".repeat(48), DOWNLOAD_SIGNING_SECRET: "d".repeat(48) };
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", REDIS_URL: "redis://127.0.0.1:6379", ...both, [variable]: "" });
  await expect(createServices(config, createLogger(config))).rejects.toThrow(new RegExp(`^${variable} must be set when REDIS_URL is set`));
  await expect(stat(path.join(dir, variable === "AUTH_SECRET" ? "auth-secret" : "signing-secret"))).rejects.toThrow(/ENOENT/);
  // with both set, the secrets are used as they are
  const ok = loadConfig({ DATA_DIR: dir, REDIS_URL: "redis://127.0.0.1:6379", ...both });
  expect(await loadAuthSecret(ok)).toBe(both.AUTH_SECRET);
  expect(await loadSigningSecret(ok)).toBe(both.DOWNLOAD_SIGNING_SECRET);
});
