/**
 * A clip's ffmpeg reads its input from the engine's loopback server over http (decision 061).
 * Bytes that claim to be an MP4 but are an HLS playlist must not make ffmpeg fetch the URLs the
 * playlist names: that would reach past the SSRF guard (here, a "private" service on 127.0.0.1).
 * Two layers stop it: the clip checks its input still starts as the container it was resolved as,
 * and ffmpeg opens a loopback input with media demuxers only (LOOPBACK_DEMUXERS in ffmpeg.ts).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "#engine/index.ts";
import { locateMediaTools } from "#engine/media/ffmpeg.ts";
import { parseMediaOptions } from "#engine/media/options/media-options.ts";
import type { SourceAdapter } from "#engine/sources/types.ts";
import { dlPath, get, serveDownloads, testConfig } from "../engine-core/engine-fixture.ts";

let secret: http.Server;
let secretHits: string[] = [];
let cdn: http.Server;
let engine: Engine;
let server: { origin: string; close(): Promise<void> };
let playlist = "";

const listen = async (s: http.Server) => {
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

/** a platform whose answer names a direct MP4; the CDN then serves a playlist under that name */
const disguised: SourceAdapter = {
  platform: "youtube",
  matches: (parsed) => parsed.kind === "youtube",
  async resolve(parsed) {
    if (parsed.kind !== "youtube") return { ok: false, code: "link.unsupported" };
    return {
      ok: true,
      media: {
        platform: "youtube",
        sourceUrl: parsed.url,
        details: {
          ...{ id: parsed.id, title: "Disguised", description: "", thumbnail: "", channelTitle: "Test", channelId: "UC1", channelThumbnail: "", isMonetized: false },
          ...{ subscriberCount: "Unknown", publishedAt: "Jan 1, 2026", duration: "0:10", viewCount: "1 views", likeCount: "0", tags: [], downloadUrl: parsed.url },
          ...{ platform: "youtube", durationSeconds: 10, embedUrl: null },
        },
        streams: [
          {
            id: "18",
            kind: "progressive",
            url: "https://cdn.example.test/video.mp4",
            transport: { type: "direct" },
            container: "mp4",
            vcodec: "h264",
            acodec: "aac",
            width: 640,
            height: 360,
            contentLength: Buffer.byteLength(playlist),
          },
        ],
        thumbnails: [],
        captions: [],
      },
    };
  },
};

beforeAll(async () => {
  secret = http.createServer((req, res) => {
    secretHits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "video/mp2t" }).end(Buffer.alloc(188 * 10, 0x47));
  });
  const secretOrigin = await listen(secret);
  playlist = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${secretOrigin}/internal/secret.ts\n#EXT-X-ENDLIST\n`;
  cdn = http.createServer((req, res) => {
    const body = Buffer.from(playlist);
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    res.writeHead(range ? 206 : 200, {
      "content-type": "video/mp4",
      "accept-ranges": "bytes",
      "content-length": end - start + 1,
      ...(range ? { "content-range": `bytes ${start}-${end}/${body.length}` } : {}),
    });
    res.end(body.subarray(start, end + 1));
  });
  const cdnOrigin = await listen(cdn);
  engine = await createEngine(testConfig({ hostMap: `cdn.example.test=${cdnOrigin}` }), { sources: [disguised], media: await locateMediaTools({}), killGraceMs: 300 });
  server = await serveDownloads(engine);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
  cdn?.closeAllConnections();
  secret?.closeAllConnections();
  await new Promise((r) => cdn?.close(r));
  await new Promise((r) => secret?.close(r));
});

describe("a clip's loopback input", () => {
  it("is read only as a media container: a playlist in its place fails the clip and ffmpeg fetches nothing it names", async () => {
    secretHits = [];
    const created = await engine.createDownload({
      url: "https://www.youtube.com/watch?v=aBcDeFgHiJk",
      format: "mp4-360",
      caller: { kind: "anonymous" },
      ip: "198.51.100.7",
      options: parseMediaOptions({ start: 2, end: 4, tags: false }),
    });
    const res = await get(server.origin + dlPath(created.downloadUrl));
    // no file: either an error before the headers or a broken body, never a clean end
    expect(res.status === 200 && res.outcome === "end").toBe(false);
    // give a stray fetch time to arrive
    await new Promise((r) => setTimeout(r, 300));
    expect(secretHits).toEqual([]);
  }, 30_000);
});
