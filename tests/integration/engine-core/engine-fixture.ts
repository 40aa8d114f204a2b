import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { createEngine, type Engine, type EngineDeps } from "#engine/index.ts";
import type { EngineConfig } from "#engine/config.ts";
import { locateMediaTools, type MediaTools } from "#engine/media/ffmpeg.ts";
import { genericSource } from "#engine/sources/generic/index.ts";
import type { SourceAdapter } from "#engine/sources/types.ts";
import type { ResolvedMedia, UpstreamStream } from "#engine/types.ts";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { startThrottlingProxy, type ThrottlingProxy } from "#tests/integration/media/throttling-proxy.ts";
import { startFakeUpstream, type FakeUpstream } from "./fake-upstream.ts";
import { silentLogger } from "./helpers.ts";

export const VIDEO_ID = "aBcDeFgHiJk";
export const WATCH_URL = `https://www.youtube.com/watch?v=${VIDEO_ID}`;

/**
 * An engine wired to a local fake CDN (`media.example.com` → 127.0.0.1 via the host map), a
 * fake YouTube adapter that "resolves" to the mock media set, and the real generic adapter.
 * Each YouTube resolve hands out URLs with the upstream's current token, so tests can expire a
 * URL (403) and watch the re-resolve.
 */
export interface EngineFixture {
  engine: Engine;
  upstream: FakeUpstream;
  media: MockMediaSet;
  tools: MediaTools;
  resolves: () => number;
  /** expire the current token: the next request gets 403 until the engine re-resolves */
  rotateToken(): void;
  /** the throttling proxy in front of the CDN, when `upstreamBytesPerSecond` was given */
  throttle: ThrottlingProxy | null;
  /** serve the engine's download handler on 127.0.0.1 */
  serve(): Promise<{ origin: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

export type TestConfigOverrides = Omit<Partial<EngineConfig>, "limits"> & { limits?: Partial<EngineConfig["limits"]> };

export function testConfig(overrides: TestConfigOverrides = {}): EngineConfig {
  const { limits, ...rest } = overrides;
  return {
    dataDir: os.tmpdir(),
    publicUrl: "http://127.0.0.1:9",
    signingSecret: "engine-core-test-secret",
    allowPrivateSources: false,
    youtube: { clients: ["ANDROID"], apiBaseUrl: "https://www.googleapis.com/youtube/v3" },
    logger: silentLogger,
    ...rest,
    limits: {
      maxConcurrentDownloads: 50,
      downloadsPerIpPerHour: 0,
      // every test client is 127.0.0.1; the tests of these caps set them
      maxConcurrentDownloadsPerIp: 0,
      segmentConcurrency: 4,
      chunkBytes: 64 * 1024,
      linkTtlSeconds: 600,
      resolveCacheSeconds: 60,
      outboundTimeoutMs: 5000,
      ...limits,
    },
  };
}

export async function startEngineFixture(
  /** upstreamBytesPerSecond: the CDN throttles each connection to this rate (a throttling proxy in front) */
  /** mapMedia: changes what the fake YouTube adapter resolves to (chapters, say) */
  opts: { config?: TestConfigOverrides; deps?: EngineDeps; upstreamDelayMs?: number; upstreamBytesPerSecond?: number; mapMedia?: (m: ResolvedMedia) => ResolvedMedia } = {},
): Promise<EngineFixture> {
  const media = await ensureMockMedia(path.join(os.tmpdir(), "vidfetch-test-media"));
  const tools = await locateMediaTools({});
  const upstream = await startFakeUpstream();
  let token = 1;
  const validTokens = new Set(["t1"]);
  const files: Array<[string, string, string]> = [
    ["/video-360.mp4", media.video[360], "video/mp4"],
    ["/audio.m4a", media.audioM4a, "audio/mp4"],
    ["/progressive.mp4", media.progressive, "video/mp4"],
    ["/thumb.jpg", media.thumbnail, "image/jpeg"],
  ];
  const sizes = new Map<string, number>();
  for (const [p, file, type] of files) {
    const data = await readFile(file);
    sizes.set(p, data.length);
    upstream.files.set(p, { data, type, validTokens, delayMs: opts.upstreamDelayMs });
  }
  let resolves = 0;
  const stream = (id: string, p: string, extra: Partial<UpstreamStream>): UpstreamStream => ({
    id,
    kind: "video",
    url: `https://media.example.com${p}?token=t${token}`,
    transport: { type: "direct" },
    container: "mp4",
    contentLength: sizes.get(p) ?? null,
    ...extra,
  });
  const adapter: SourceAdapter = {
    platform: "youtube",
    matches: (link) => link.kind === "youtube",
    async resolve(link) {
      resolves++;
      if (link.kind !== "youtube") return { ok: false, code: "link.unsupported" };
      if (link.id === "notFound123") return { ok: false, code: "video.not_found" };
      const resolved: ResolvedMedia = {
        platform: "youtube",
        sourceUrl: link.url,
        details: {
          id: link.id,
          title: "Café au lait: a test — video",
          description: "",
          thumbnail: "",
          channelTitle: "Test",
          channelId: "UC1",
          channelThumbnail: "",
          isMonetized: false,
          subscriberCount: "Unknown",
          publishedAt: "Jan 1, 2026",
          duration: "0:06",
          viewCount: "1 views",
          likeCount: "0",
          tags: [],
          downloadUrl: link.url,
          platform: "youtube",
          durationSeconds: media.durationSeconds,
          embedUrl: null,
        },
        streams: [
          stream("134", "/video-360.mp4", { kind: "video", vcodec: "h264", width: 640, height: 360, bitrate: 300_000 }),
          stream("140", "/audio.m4a", { kind: "audio", container: "m4a", acodec: "aac", bitrate: 128_000 }),
        ],
        thumbnails: [{ url: `https://media.example.com/thumb.jpg?token=t${token}`, width: 1280, height: 720, name: "maxres" }],
        captions: [],
      };
      return { ok: true, media: opts.mapMedia ? opts.mapMedia(resolved) : resolved };
    },
  };
  const throttle = opts.upstreamBytesPerSecond ? await startThrottlingProxy({ target: upstream.origin, bytesPerSecond: opts.upstreamBytesPerSecond }) : null;
  const engine = await createEngine(testConfig({ hostMap: `media.example.com=${throttle?.origin ?? upstream.origin}`, ...opts.config }), {
    sources: [adapter, genericSource],
    media: tools,
    killGraceMs: 500,
    ...opts.deps,
  });
  return {
    engine,
    upstream,
    media,
    tools,
    resolves: () => resolves,
    rotateToken() {
      validTokens.delete(`t${token}`);
      token++;
      validTokens.add(`t${token}`);
    },
    serve: () => serveDownloads(engine),
    throttle,
    async close() {
      await engine.close();
      await throttle?.close();
      await upstream.close();
    },
  };
}

/** The engine's download handler on 127.0.0.1, as the host serves it. */
export async function serveDownloads(engine: Engine): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const m = /^\/api\/v1\/dl\/([^/?]+)/.exec(req.url ?? "");
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    void engine.handleDownload(m[1]!, req, res);
  });
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** The path part of a download URL (the test server listens elsewhere than publicUrl). */
export function dlPath(downloadUrl: string): string {
  return new URL(downloadUrl).pathname;
}

export interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** "end" when the body completed, "error" when the connection broke */
  outcome: "end" | "error";
}

/** A raw GET that reports a broken body instead of hiding it. */
export function get(url: string, headers: Record<string, string> = {}, opts: { abortAfterBytes?: number } = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      let got = 0;
      let done = false;
      const finish = (outcome: "end" | "error") => {
        if (done) return;
        done = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), outcome });
      };
      res.on("data", (c: Buffer) => {
        parts.push(c);
        got += c.length;
        if (opts.abortAfterBytes !== undefined && got >= opts.abortAfterBytes) {
          req.destroy();
          finish("error");
        }
      });
      res.on("end", () => finish(res.complete ? "end" : "error"));
      res.on("error", () => finish("error"));
      res.on("aborted", () => finish("error"));
      res.on("close", () => finish(res.complete ? "end" : "error"));
    });
    req.on("error", reject);
  });
}
