import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { Writable } from "node:stream";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { afterEach } from "vitest";
import type { DatabaseHandle } from "#db/client.ts";
import type { Engine } from "#engine/index.ts";
import type { AccountServices } from "#app/modules/account/account-services.server.ts";
import type { BillingServices } from "#app/modules/billing/billing-services.server.ts";
import type { Database } from "#db/client.ts";
import { createMemoryLimiter } from "#app/lib/attempt-limiter.server.ts";
import { createAuth } from "#app/modules/account/auth.server.ts";
import { createApp } from "#server/app.ts";
import { loadConfig, publicConfig } from "#server/config.ts";
import { serializeError } from "#server/logger.ts";
import { serverBuild } from "../../support/server-build.ts";

/**
 * The Express host without the React build, for tests of what the host itself does. Pages are
 * a small hand-made build (`echoBuild`) or absent; the real build is covered by the e2e suite.
 */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

export interface EngineCalls {
  resolved: string[];
  downloads: string[];
}

function fakeEngine(calls: EngineCalls): Engine {
  return {
    mediaTools: { ffmpeg: "ffmpeg", ffprobe: "ffprobe", version: "5.1", source: "path" },
    resolve: async (url: string) => {
      calls.resolved.push(url);
      return { video: { id: "x" }, formats: [] };
    },
    // POST /resolve asks resolveLink (a video, or a playlist's entries)
    resolveLink: async (url: string) => {
      calls.resolved.push(url);
      return { video: { id: "x" }, formats: [] };
    },
    createDownload: async (req: { url: string }) => {
      calls.downloads.push(req.url);
      return { id: "dl_test", downloadUrl: "/api/v1/dl/not-a-real-token" };
    },
  } as unknown as Engine;
}

export async function startHost(
  opts: {
    env?: NodeJS.ProcessEnv;
    ping?: () => Promise<void>;
    build?: ServerBuild;
    /** serve `build` as production does (enforced CSP, page cache) instead of through the dev path */
    production?: boolean;
    logTo?: Writable;
    accounts?: AccountServices;
    db?: Database;
    billing?: BillingServices;
    /** engine functions a test plays itself (progress events, say), over the recording fake */
    engine?: Partial<Engine>;
  } = {},
) {
  const config = loadConfig({ LOG_LEVEL: "silent", ...opts.env });
  const logger = opts.logTo ? pino({ level: "info", serializers: { err: serializeError } }, opts.logTo) : pino({ level: "silent" });
  const calls: EngineCalls = { resolved: [], downloads: [] };
  const database = { db: opts.db, ping: opts.ping ?? (async () => {}), close: async () => {}, driver: "pglite" } as unknown as DatabaseHandle;
  const build = opts.build;
  // No database behind these hosts: better-auth is built (its handler is mounted) but unused
  // unless a test brings its own accounts.
  const accounts = opts.accounts ?? {
    auth: createAuth({ db: database.db, secret: "host-test-auth-secret-host-test-auth-secret", publicUrl: config.PUBLIC_URL, logger, mailer: { send: async () => {} } }),
    limiter: createMemoryLimiter(),
  };
  const app = createApp({
    accounts,
    billing: opts.billing ?? null,
    blogLimiter: createMemoryLimiter(),
    mailer: { send: async () => {} },
    jobs: null,
    config,
    publicConfig: publicConfig(config),
    logger,
    db: database.db,
    database,
    engine: { ...fakeEngine(calls), ...opts.engine } as Engine,
    build: opts.production && build ? { mode: "production", serverBuild: build, clientDir: "/nonexistent" } : {
      mode: "development",
      middleware: (_req, _res, next) => next(),
      load: async () => {
        if (build) return build;
        throw new Error("pages are not part of this test");
      },
    },
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((r) => server.once("listening", r));
  const port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, port, calls };
}

/**
 * A one-route build whose resource route answers every GET and POST with what it received:
 * proof that a request passed the host's checks and what body the route could read.
 */
export function echoBuild(): ServerBuild {
  const echo = async ({ request }: { request: Request }) => {
    const type = request.headers.get("content-type") ?? "";
    const fields: Record<string, string> = {};
    if (request.method === "POST") {
      const form = await request.formData();
      for (const [k, v] of form) fields[k] = typeof v === "string" ? v : `file:${v.size}`;
    }
    return Response.json({ method: request.method, url: request.url, type, fields });
  };
  return resourceRoutesBuild({ echo: { path: "*", module: { loader: echo, action: echo } } });
}

export type TestRoutes = Record<string, { path: string; module: Record<string, unknown> }>;

/** A build of resource routes only (each a loader and maybe an action, all below the root). */
export function resourceRoutesBuild(routes: TestRoutes): ServerBuild {
  return serverBuild({
    entry: { module: { default: () => new Response("no pages in this build", { status: 404 }) } },
    routes: {
      root: { id: "root", path: "", module: {} },
      ...Object.fromEntries(Object.entries(routes).map(([id, r]) => [id, { id, parentId: "root", ...r }])),
    },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "test" },
  });
}
