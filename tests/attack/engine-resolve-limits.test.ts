import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaPlaylist, startHostileOrigin, type HostileOrigin } from "./support/engine-origin.ts";
import { startServer, type AttackServer } from "./support/server.ts";
import { MOCK_LINKS } from "./support/targets.ts";

/**
 * Issue 27, findings 4 and 6: `GET /api/v1/download` resolved without any request limit (60 of
 * 60 fresh resolves in 4 s, while `POST /resolve` stopped at 30), and 60 distinct playlists of
 * 100,000 segments took the server from 288 MB to 1.2 GB (the resolve cache counted entries).
 */
const RUN = randomBytes(3).toString("hex");

describe("one resolve budget per IP, whatever the method", () => {
  const LIMIT = 6;
  let server: AttackServer;
  beforeAll(async () => {
    server = await startServer({ preferredPort: 3332, env: { RESOLVE_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  }, 200_000);
  afterAll(async () => {
    await server?.stop();
  });

  const link = MOCK_LINKS.find((l) => l.endsWith(".mp4"))!;
  const get = () => fetch(`${server.origin}/api/v1/download?url=${encodeURIComponent(link)}&format=mp4-360`, { redirect: "manual" });
  const post = (path: string, body: unknown) => fetch(`${server.origin}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("GET /download, POST /downloads and POST /resolve share it, and past it each answers 429 with Retry-After", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await get()).status);
    for (let i = 0; i < 2; i++) statuses.push((await post("/downloads", { url: link, format: "mp4-360" })).status);
    statuses.push((await post("/resolve", { url: link })).status);
    expect(statuses).toEqual([302, 302, 302, 200, 200, 200]);

    for (const res of [await get(), await post("/downloads", { url: link, format: "mp4-360" }), await post("/resolve", { url: link })]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      expect(await res.json()).toEqual({ error: { code: "download.rate_limited", message: "You've made too many requests. Please wait a moment and try again." } });
    }
    // pages and the health check are not resolves
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  }, 60_000);
});

describe("playlists of 100,000 segments", () => {
  const COUNT = 60;
  let server: AttackServer;
  let origin: HostileOrigin;
  beforeAll(async () => {
    const segments = Array.from({ length: 100_000 }, (_, i) => `seg/${String(i).padStart(6, "0")}.ts`);
    const variant = mediaPlaylist(segments);
    // codecs and size named: the link resolves without probing a segment (and was cached whole)
    const master = ["#EXTM3U", '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2"', "v.m3u8", ""].join("\n");
    origin = await startHostileOrigin((_req, res, url) => {
      const playlist = url.pathname.endsWith("/index.m3u8") ? master : url.pathname.endsWith("/v.m3u8") ? variant : null;
      if (playlist) res.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" }).end(playlist);
      else res.writeHead(404).end();
    });
    server = await startServer({ preferredPort: 3333, env: { ALLOW_PRIVATE_SOURCES: "true" }, inspect: true });
  }, 200_000);
  afterAll(async () => {
    await server?.stop();
    await origin?.close();
  });

  it("are refused with a clear message, and the server's memory stays where it was", async () => {
    await server.collectGarbage();
    const before = server.rssMb();
    const answers: Array<{ status: number; body: { error?: { code: string; message: string } } }> = [];
    for (let i = 0; i < COUNT; i += 10) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, async (_, j) => {
            const link = `${origin.origin}/${RUN}-${i + j}/index.m3u8`;
            const res = await fetch(`${server.origin}/api/v1/download?url=${encodeURIComponent(link)}&format=mp4-360`, { redirect: "manual" });
            return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
          }),
        )),
      );
    }
    for (const answer of answers) {
      expect(answer.status).toBe(502);
      expect(answer.body.error).toEqual({ code: "upstream.too_large", message: "This video is split into more than 20,000 parts, more than this server downloads." });
    }
    await server.collectGarbage();
    const grown = server.rssMb() - before;
    // before the limit: about 15 MB kept per playlist (900 MB for these 60). What a collection
    // leaves in the allocator's hands varies from run to run (0 to 163 MB in three runs on
    // 2026-11-27, none keeping a playlist): the bound is a third of what keeping them costs.
    expect(grown, `RSS grew from ${before.toFixed(0)} MB by ${grown.toFixed(0)} MB`).toBeLessThan(300);
    expect(server.exited()).toBeNull();
  }, 180_000);
});

