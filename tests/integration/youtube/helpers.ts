/** Shared by the YouTube integration tests: an engine-like source context over the local fakes. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { EngineConfig } from "#engine/config.ts";
import { createOutboundFetch } from "#engine/outbound/outbound-fetch.ts";
import type { OutboundFetch } from "#engine/outbound/outbound-fetch.ts";
import type { Engine } from "#engine/index.ts";
import { DEFAULT_MAX_REFUSALS } from "#engine/stream/refusal-ladder.ts";
import { startMockPlatform, type MockPlatform } from "#tests/mocks/platform.ts";

export const silentLogger = pino({ level: "silent" });

/** One media cache for every test file (generation is lock-protected across Vitest forks). */
export const MEDIA_CACHE_DIR = path.join(os.tmpdir(), "vidfetch-test-media");

export interface TestContext {
  fetch: OutboundFetch;
  config: EngineConfig;
  logger: typeof silentLogger;
  // The YouTube source never runs ffmpeg; the field exists because every source gets it.
  media: { ffmpeg: string; ffprobe: string; version: string; source: "path" };
}

export function sourceContext(opts: { hostMap: string; clients?: string[]; apiKey?: string }): TestContext {
  const fetch = createOutboundFetch({ hostMap: opts.hostMap, allowPrivate: false, timeoutMs: 10_000, logger: silentLogger, retries: 0 });
  const config: EngineConfig = {
    dataDir: os.tmpdir(),
    publicUrl: "http://localhost:3000",
    signingSecret: "test-secret",
    hostMap: opts.hostMap,
    allowPrivateSources: false,
    youtube: {
      clients: opts.clients ?? ["VISIONOS", "ANDROID"],
      apiKey: opts.apiKey,
      apiBaseUrl: "https://www.googleapis.com/youtube/v3",
    },
    limits: {
      maxConcurrentDownloads: 4,
      downloadsPerIpPerHour: 0,
      segmentConcurrency: 4,
      chunkBytes: 1 << 20,
      linkTtlSeconds: 600,
      resolveCacheSeconds: 0,
      outboundTimeoutMs: 10_000,
    },
    logger: silentLogger,
  };
  return { fetch, config, logger: silentLogger, media: { ffmpeg: "ffmpeg", ffprobe: "ffprobe", version: "n/a", source: "path" } };
}

/**
 * The most requests one download may send the mock platform under decision 056's budgets (issue
 * 32 §7: "the number of upstream requests stays within the budget"), derived, not measured:
 * - player requests: each client of the ladder at most once per resolve, for the download's own
 *   resolves (`linkResolves`: one when the link's answer is cached for its download, two without a
 *   resolve cache), the refusal ladder's two resolving rungs (re-resolve; next client or egress),
 *   each climbed at most once, and a bot wall's one move to the next egress (`egressMoves`);
 * - media requests: every input in requests of at least `smallestRequestBytes` (the first ranges,
 *   or rung 1's pieces once it was climbed), each byte asked by one working request at most (a
 *   reader's cursor never moves back), plus one per refusal the download's budget allows.
 */
export function downloadRequestBudget(opts: {
  ladder: number;
  inputBytes: readonly number[];
  smallestRequestBytes: number;
  linkResolves?: number;
  egressMoves?: number;
  maxRefusals?: number;
}): { players: number; media: number } {
  const resolves = (opts.linkResolves ?? 1) + 2 + (opts.egressMoves ?? 0);
  const ranges = opts.inputBytes.reduce((n, bytes) => n + Math.ceil(bytes / opts.smallestRequestBytes), 0);
  return { players: resolves * opts.ladder, media: ranges + (opts.maxRefusals ?? DEFAULT_MAX_REFUSALS) };
}

export function youtubeLink(id: string) {
  return { kind: "youtube" as const, id, url: `https://www.youtube.com/watch?v=${id}` };
}

/** A local server answering download links (`/api/v1/dl/<token>`) with the engine `current()` gives (404 without one). */
export async function startDownloadServer(current: () => Engine | undefined): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((req, res) => {
    const token = /^\/api\/v1\/dl\/([^/?]+)/.exec(req.url ?? "")?.[1];
    const engine = current();
    if (!token || !engine) return void res.writeHead(404).end();
    void engine.handleDownload(token, req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export interface MockPlatformSuite {
  /** the mock platform (set in beforeAll) */
  platform: MockPlatform;
  /** the download server's origin: an engine's `publicUrl` */
  origin: string;
  /** makes `engine` the one the download server answers with; it is closed after all tests */
  use(engine: Engine): Engine;
}

/**
 * A test file's mock platform and download server, with the hooks every such file needs: started
 * before all tests, the YouTube modes reset after each, the engines made with `use`, the server
 * and the platform closed after all.
 */
export function mockPlatformSuite(): MockPlatformSuite {
  const engines: Engine[] = [];
  let current: Engine | undefined;
  let server: http.Server | undefined;
  const suite: MockPlatformSuite = {
    platform: undefined as unknown as MockPlatform,
    origin: "",
    use(engine) {
      engines.push(engine);
      current = engine;
      return engine;
    },
  };
  beforeAll(async () => {
    suite.platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
    const started = await startDownloadServer(() => current);
    server = started.server;
    suite.origin = started.origin;
  });
  afterEach(() => suite.platform?.setYouTubeModes({}));
  afterAll(async () => {
    for (const engine of engines) await engine.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await suite.platform?.close();
  });
  return suite;
}
