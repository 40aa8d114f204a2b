import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * E2E against the production build in the system Chromium (never a downloaded browser), with
 * the built-in mock platform (MOCKS=true) so the whole journey runs offline.
 * E2E_PORT and BUILD_DIR let several runs share one machine.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
// Computed once in the main process; workers inherit it through the environment.
process.env.E2E_DB_NAME ??= `vidfetch_e2e_${Date.now()}_${randomBytes(3).toString("hex")}`;
// The mail the e2e server sends over SMTP lands here (scripts/e2e-server.mjs), one .eml per message.
process.env.E2E_MAILBOX_DIR ??= path.join(tmpdir(), `vidfetch-e2e-mail-${Date.now()}-${randomBytes(3).toString("hex")}`);

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // The site's service worker answers pages from its caches: the journeys that test it
    // (offline-site.spec.ts) allow it, the rest see the network as it is.
    serviceWorkers: "block",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS },
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined } },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: { PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}` },
  },
});
