import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { cookieHeaderFrom, insertActiveSubscription, testAccounts } from "#tests/support/accounts.ts";
import { withTestDatabase, type TestDatabase, type TestDatabaseVariant } from "#tests/support/test-db.ts";
import { afterAll, beforeAll } from "vitest";
import { recordDownload } from "#app/modules/history/record-download.server.ts";
import { createEngine, type DownloadFinished, type Engine } from "#engine/index.ts";
import { createCallerResolver } from "#server/api/caller.ts";
import { createApiRouter } from "#server/api/router.ts";
import { mountApiKeys } from "#server/api/keys.ts";
import { createProfilesRouter, profileResolver } from "#server/api/profiles.ts";
import { createProfiles } from "#app/modules/profiles/profiles.server.ts";
import { startMockPlatform, type MockPlatform } from "#tests/mocks/platform.ts";
import { silentLogger, sourceContext } from "../youtube/helpers.ts";

export const ALL_FORMATS_URL = "https://www.youtube.com/watch?v=vidfetchAll";

/**
 * The API as the host mounts it (session cookie → account → plan → engine caller), on a test
 * database, with the real engine and YouTube adapter on the mock platform (which has 2160p),
 * and the history hook wired like server/services.ts.
 */
export interface PlanFixture {
  origin: string;
  engine: Engine;
  finished: DownloadFinished[];
  /** a signed-up account's Cookie header; `plan` inserts an active subscription row */
  signUp(name: string, plan?: "basic" | "pro" | "ultimate"): Promise<{ cookie: string; userId: string }>;
  post(pathname: string, body: unknown, cookie?: string): Promise<Response>;
  /** media files the mock platform is sending right now (upstream connections still open) */
  openUpstreamFiles(): number;
  close(): Promise<void>;
}

let platform: MockPlatform | null = null;

export async function startPlanFixture(db: TestDatabase, opts: { downloadsPerIpPerHour?: number } = {}): Promise<PlanFixture> {
  platform ??= await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
  const accounts = testAccounts(db.db);
  const finished: DownloadFinished[] = [];
  const app = express();
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { config } = sourceContext({ hostMap: platform.hostMap });
  const engine = await createEngine(
    { ...config, publicUrl: origin, limits: { ...config.limits, resolveCacheSeconds: 60, downloadsPerIpPerHour: opts.downloadsPerIpPerHour ?? 0 } },
    {
      onDownloadFinished: async (event) => {
        await recordDownload(db.db, event);
        finished.push(event);
      },
    },
  );
  mountApiKeys(app, { db: db.db, accounts, logger: silentLogger });
  const identify = createCallerResolver({ accounts, db: db.db, logger: silentLogger });
  const profiles = createProfiles({ db: db.db });
  app.use("/api/v1/profiles", createProfilesRouter({ profiles, identify, logger: silentLogger }));
  app.use("/api/v1", createApiRouter({ engine, logger: silentLogger, identify, resolveProfile: profileResolver(profiles) }));
  let n = 0;
  return {
    origin,
    engine,
    finished,
    async signUp(name, plan) {
      const email = `${name.toLowerCase()}-${Date.now()}-${n++}@example.com`;
      const res = await accounts.auth.api.signUpEmail({ body: { name, email, password: "correct horse battery" }, asResponse: true });
      const { user } = (await res.clone().json()) as { user: { id: string } };
      if (plan) await insertActiveSubscription(db.db, user.id, plan);
      return { cookie: cookieHeaderFrom(res), userId: user.id };
    },
    post: (pathname, body, cookie) =>
      fetch(`${origin}/api/v1${pathname}`, { method: "POST", headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) }),
    openUpstreamFiles: () => platform?.openFiles() ?? 0,
    async close() {
      await engine.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export async function closePlatform(): Promise<void> {
  await platform?.close();
  platform = null;
}

/**
 * One describe block's fixture on a database variant: the shared database and the API on it,
 * started before the block's tests and closed after them. `use` receives both once started
 * (the block keeps them in its own variables); `skip` is the variant's.
 */
export function planFixtureFor(
  variant: TestDatabaseVariant,
  use: (started: { db: TestDatabase; fx: PlanFixture }) => void,
  opts: { downloadsPerIpPerHour?: number } = {},
): { skip: boolean } {
  const { skip, openShared } = withTestDatabase(variant);
  let fx: PlanFixture | undefined;
  beforeAll(async () => {
    if (skip) return;
    const db = await openShared();
    fx = await startPlanFixture(db, opts);
    use({ db, fx });
  }, 120_000);
  afterAll(async () => {
    await fx?.close();
  });
  return { skip };
}
