/**
 * Issue 32 §1: the headers and cookies yt-dlp says a format needs reach the CDN that needs them,
 * through our guarded fetch, and no other host. A fake TikTok CDN answers 403 unless the request
 * carries the page as Referer and the `tt_chain_token` cookie yt-dlp named (in the current
 * `cookies` field, or inside http_headers as yt-dlp 2023.03 puts it); a redirect from it to
 * another host must not carry the cookie there; the cookie never shows in the logs. A link made
 * on one instance downloads on another that shares the resolve cache. Caption files get the same:
 * the headers yt-dlp names for the file (or the document's) and the cookies of its jar, each only
 * where its scope matches.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "#engine/index.ts";
import { memoryEngineState } from "#engine/state/memory.ts";
import type { ResolveCacheStore } from "#engine/state/types.ts";
import type { ResolvedMedia } from "#engine/types.ts";
import { ensureMockMedia } from "#tests/mocks/media.ts";
import { writeFakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { TIKTOK_CHAIN_TOKEN, TIKTOK_PAGE_COOKIE, tiktokDocument } from "#tests/mocks/ytdlp-tiktok.ts";
import { dlPath, get, serveDownloads, testConfig } from "../engine-core/engine-fixture.ts";
import { startServer, type TestServer } from "../engine-core/helpers.ts";
import { ffprobeFile, MEDIA_CACHE_DIR } from "../media/helpers.ts";
import { ANONYMOUS, BARE, downloadToFile, startEngine, type EngineWithTools } from "./helpers.ts";

const PAGE = "https://www.tiktok.com/@someone/video/7301234567890123456";
const CDN = "https://v16-webapp-prime.tiktokcdn.test";
const ELSEWHERE = "https://media.elsewhere.test";
const link = (id: string) => `https://www.tiktok.com/@someone/video/${id}`;
/** the videos: which document yt-dlp prints for which link */
const VIDEOS = {
  current: "7301234567890123451",
  old: "7301234567890123452",
  awayRedirect: "7301234567890123453",
  siblingRedirect: "7301234567890123454",
  hls: "7301234567890123455",
  unknownCodecs: "7301234567890123456",
  captions: "7301234567890123457",
};
/** the caption files: English on the CDN (which checks the Referer and cookie), German on another host */
const CAPTION_FILES: Record<string, string> = {
  "/captions/en.vtt": "WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nBirds over the harbour.\n\n00:00:02.000 --> 00:00:04.000\nThe tide turns.\n",
  "/captions/de.vtt": "WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nVögel über dem Hafen.\n",
};
/** the Referer of the document's own http_headers (yt-dlp's headers for a caption file that names none) */
const DOCUMENT_REFERER = "https://www.tiktok.com/";

/** the TikTok document with caption files: English names its own headers (the page as Referer), German takes the document's */
function captionsDocument(): Record<string, unknown> {
  const doc = tiktokDocument({ mediaUrl: `${CDN}/video/tos/play.mp4?sig=3`, style: "current", cookieDomain: ".tiktokcdn.test" });
  const [format] = doc.formats as Array<{ http_headers: Record<string, string> }>;
  return {
    ...doc,
    http_headers: { ...format!.http_headers, Referer: DOCUMENT_REFERER },
    subtitles: {
      en: [{ url: `${CDN}/captions/en.vtt?expire=1900000000&sig=c4p`, ext: "vtt", name: "English", http_headers: format!.http_headers }],
      de: [{ url: `${ELSEWHERE}/captions/de.vtt`, ext: "vtt", name: "Deutsch" }],
    },
  };
}

let file: Buffer;
let hlsDir: string;
let cdn: TestServer;
let elsewhere: TestServer;
let fixture: EngineWithTools;
const logText: string[] = [];

/** the TikTok document with its one format served as HLS from `manifest` (same headers and cookies) */
function hlsDocument(manifest: string): Record<string, unknown> {
  const doc = tiktokDocument({ mediaUrl: manifest, style: "current", cookieDomain: ".tiktokcdn.test" });
  const [format] = doc.formats as Array<Record<string, unknown>>;
  return { ...doc, formats: [{ ...format, format_id: "hls-360", manifest_url: manifest, protocol: "m3u8_native" }] };
}

/** the document with its format's codecs left out, as Facebook's progressive files come: our engine probes the file */
function withoutCodecs(doc: Record<string, unknown>): Record<string, unknown> {
  const [format] = doc.formats as Array<Record<string, unknown>>;
  return { ...doc, formats: [{ ...format, vcodec: null, acodec: null, width: null, height: null }] };
}

/** the file, or the part a Range asks for */
function sendFile(req: IncomingMessage, res: ServerResponse): void {
  const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
  if (!m) {
    res.writeHead(200, { "content-type": "video/mp4", "content-length": file.length, "accept-ranges": "bytes" });
    res.end(file);
    return;
  }
  const start = Number(m[1]);
  const end = Math.min(m[2] ? Number(m[2]) : file.length - 1, file.length - 1);
  res.writeHead(206, { "content-type": "video/mp4", "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${file.length}` });
  res.end(file.subarray(start, end + 1));
}

/** TikTok's CDN as the issue describes it: the page as Referer and its cookie, or 403 */
function cdnHandler(req: IncomingMessage, res: ServerResponse): void {
  const cookie = req.headers.cookie ?? "";
  if (req.headers.referer !== PAGE || !cookie.split("; ").includes(`tt_chain_token=${TIKTOK_CHAIN_TOKEN}`)) {
    res.writeHead(403, { "content-type": "text/plain" }).end("Forbidden");
    return;
  }
  const path = new URL(req.url ?? "/", "http://cdn").pathname;
  if (path === "/video/tos/play.mp4") return sendFile(req, res);
  if (CAPTION_FILES[path]) return void res.writeHead(200, { "content-type": "text/vtt" }).end(CAPTION_FILES[path]);
  if (path.startsWith("/hls/") && !path.includes("..")) {
    readFile(join(hlsDir, path.slice("/hls/".length))).then(
      (data) => res.writeHead(200, { "content-type": path.endsWith(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t" }).end(data),
      () => res.writeHead(404).end(),
    );
    return;
  }
  if (path === "/video/tos/away.mp4") return void res.writeHead(302, { location: `${ELSEWHERE}/video/tos/play.mp4` }).end();
  if (path === "/video/tos/sibling.mp4") return void res.writeHead(302, { location: "https://v19-webapp.tiktokcdn.test/video/tos/play.mp4" }).end();
  res.writeHead(404).end();
}

beforeAll(async () => {
  const media = await ensureMockMedia(MEDIA_CACHE_DIR);
  file = await readFile(media.progressive);
  hlsDir = media.hls;
  cdn = await startServer(cdnHandler);
  elsewhere = await startServer((req, res) => {
    const caption = CAPTION_FILES[new URL(req.url ?? "/", "http://x").pathname];
    if (caption) return void res.writeHead(200, { "content-type": "text/vtt" }).end(caption);
    sendFile(req, res);
  });
  const mediaUrl = (p: string) => `${CDN}/video/tos/${p}?a=1988&expire=1900000000&signature=s1g`;
  const fake = await writeFakeYtdlp({
    type: "by-link",
    documents: {
      [VIDEOS.current]: tiktokDocument({ mediaUrl: mediaUrl("play.mp4"), style: "current", cookieDomain: ".tiktokcdn.test" }),
      [VIDEOS.old]: tiktokDocument({ mediaUrl: mediaUrl("play.mp4"), style: "2023.03" }),
      [VIDEOS.awayRedirect]: tiktokDocument({ mediaUrl: mediaUrl("away.mp4"), style: "current", cookieDomain: ".tiktokcdn.test" }),
      [VIDEOS.siblingRedirect]: tiktokDocument({ mediaUrl: mediaUrl("sibling.mp4"), style: "current", cookieDomain: ".tiktokcdn.test" }),
      [VIDEOS.hls]: hlsDocument(`${CDN}/hls/ts-360/index.m3u8`),
      [VIDEOS.unknownCodecs]: withoutCodecs(tiktokDocument({ mediaUrl: mediaUrl("play.mp4"), style: "current", cookieDomain: ".tiktokcdn.test" })),
      [VIDEOS.captions]: captionsDocument(),
    },
  });
  const logger = pino(
    { level: "debug" },
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        logText.push(chunk.toString());
        cb();
      },
    }),
  );
  fixture = await startEngine({ hostMap: `*.tiktokcdn.test=${cdn.origin},media.elsewhere.test=${elsewhere.origin}`, ytdlpPath: fake.path, ytdlpTimeoutMs: 15_000, logger });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await cdn?.close();
  await elsewhere?.close();
});

describe("yt-dlp's headers and cookies reach the CDN that needs them", () => {
  it("current yt-dlp (a cookies field): the resolve sizes the file and the download is its exact bytes", async () => {
    const { formats } = await fixture.engine.resolve(link(VIDEOS.current), ANONYMOUS);
    const shown = formats.find((f) => f.id === "mp4-360");
    expect(shown).toMatchObject({ available: true });
    // the size counts the tags written into the file's head, and is what the download sends
    expect(shown!.bytes).toBeGreaterThan(file.length);
    expect((await downloadToFile(fixture.engine, link(VIDEOS.current), "mp4-360")).bytes).toBe(shown!.bytes);
    // tags off, the file byte for byte
    const got = await downloadToFile(fixture.engine, link(VIDEOS.current), "mp4-360", BARE);
    expect(got.status).toBe(200);
    expect((await readFile(got.file)).equals(file)).toBe(true);
    // every request the CDN saw carried yt-dlp's headers, and never the page host's own cookie
    const seen = cdn.requests.filter((r) => r.url.startsWith("/video/tos/play.mp4"));
    expect(seen.length).toBeGreaterThan(1);
    for (const r of seen) {
      expect(r.headers).toMatchObject({ referer: PAGE, "sec-fetch-mode": "navigate", "accept-language": "en-us,en;q=0.5", "user-agent": expect.stringContaining("Chrome/134") });
      expect(r.headers.cookie).toBe(`tt_chain_token=${TIKTOK_CHAIN_TOKEN}; ttwid=1%7Cq0x8`);
    }
  }, 60_000);

  it("yt-dlp 2023.03 (the Cookie inside http_headers): the download is the file's exact bytes", async () => {
    const got = await downloadToFile(fixture.engine, link(VIDEOS.old), "mp4-360", BARE);
    expect(got.status).toBe(200);
    expect((await readFile(got.file)).equals(file)).toBe(true);
  }, 60_000);

  it("a redirect to another host carries the Referer but not the cookie; one within the cookie's domain carries it", async () => {
    const before = elsewhere.requests.length;
    const away = await downloadToFile(fixture.engine, link(VIDEOS.awayRedirect), "mp4-360", BARE);
    expect((await readFile(away.file)).equals(file)).toBe(true);
    const there = elsewhere.requests.slice(before);
    expect(there.length).toBeGreaterThan(0);
    for (const r of there) {
      expect(r.headers.cookie).toBeUndefined();
      expect(r.headers.referer).toBe(PAGE);
    }
    const sibling = await downloadToFile(fixture.engine, link(VIDEOS.siblingRedirect), "mp4-360", BARE);
    expect((await readFile(sibling.file)).equals(file)).toBe(true);
    expect(cdn.requests.some((r) => r.headers["x-forwarded-host"] === "v19-webapp.tiktokcdn.test" && r.headers.cookie?.includes("tt_chain_token="))).toBe(true);
  }, 60_000);

  it("a file whose codecs yt-dlp does not know is probed with them, and offered", async () => {
    const { formats } = await fixture.engine.resolve(link(VIDEOS.unknownCodecs), ANONYMOUS);
    expect(formats.find((f) => f.id === "mp4-360")).toMatchObject({ available: true });
  }, 60_000);

  it("HLS: the manifest and every segment carry them (the CDN refuses each request without)", async () => {
    const before = cdn.requests.length;
    const got = await downloadToFile(fixture.engine, link(VIDEOS.hls), "mp4-360");
    expect(got.status).toBe(200);
    const probe = await ffprobeFile(got.file);
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 360 });
    expect(probe.duration).toBeCloseTo(6, 0);
    const segments = cdn.requests.slice(before).filter((r) => r.url.endsWith(".ts"));
    expect(segments.length).toBeGreaterThanOrEqual(3);
    for (const r of segments) expect([r.headers.referer, r.headers.cookie]).toEqual([PAGE, `tt_chain_token=${TIKTOK_CHAIN_TOKEN}; ttwid=1%7Cq0x8`]);
    // a job's file (no prefetch while resolving: the link is cached) is read by the segment reader alone
    const opened = await fixture.engine.openDownload({ url: link(VIDEOS.hls), format: "mp4-360", caller: ANONYMOUS, ip: "203.0.113.9" });
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).length).toBeGreaterThan(10_000);
  }, 60_000);

  it("caption files: the CDN's gets the headers yt-dlp named for it and the jar's cookie; another host's the document's headers and no cookie", async () => {
    // the fake CDN refuses a caption request that lacks them
    const bare = await fetch(`${cdn.origin}/captions/en.vtt?expire=1900000000&sig=c4p`);
    expect(bare.status).toBe(403);
    const before = { cdn: cdn.requests.length, elsewhere: elsewhere.requests.length };
    const { formats, subtitles } = await fixture.engine.resolve(link(VIDEOS.captions), ANONYMOUS);
    expect(subtitles.map((s) => s.language)).toEqual(["en", "de"]);
    const transcript = await downloadToFile(fixture.engine, link(VIDEOS.captions), "transcript");
    expect(transcript.status).toBe(200);
    const text = await readFile(transcript.file, "utf8");
    expect(text).toContain("Birds over the harbour.");
    // read once while resolving (its size shown) and again for the file
    expect(formats.find((f) => f.id === "transcript")?.bytes).toBe(transcript.bytes);
    const captionRequests = cdn.requests.slice(before.cdn).filter((r) => r.url.startsWith("/captions/"));
    expect(captionRequests.length).toBeGreaterThanOrEqual(2);
    for (const r of captionRequests) {
      expect(r.headers).toMatchObject({ referer: PAGE, "sec-fetch-mode": "navigate", "user-agent": expect.stringContaining("Chrome/134") });
      // the CDN's cookies (Domain=.tiktokcdn.test), never the page host's own
      expect(r.headers.cookie).toBe(`tt_chain_token=${TIKTOK_CHAIN_TOKEN}; ttwid=1%7Cq0x8`);
    }

    // the German file on another host: a Pro caller's subtitles in that language
    const created = await fixture.engine.createDownload({ url: link(VIDEOS.captions), format: "vtt", language: "de", caller: { kind: "premium", plan: "pro" }, ip: "203.0.113.9" });
    const server = await serveDownloads(fixture.engine);
    try {
      const res = await get(`${server.origin}${dlPath(created.downloadUrl)}`);
      expect(res.status).toBe(200);
      expect(res.body.toString("utf8")).toContain("Vögel über dem Hafen.");
    } finally {
      await server.close();
    }
    const there = elsewhere.requests.slice(before.elsewhere).filter((r) => r.url.startsWith("/captions/"));
    expect(there.length).toBeGreaterThan(0);
    for (const r of there) {
      expect(r.headers.referer).toBe(DOCUMENT_REFERER);
      expect(r.headers.cookie).toBeUndefined();
    }
  }, 60_000);

  it("never writes the cookie into the logs, and the API's answers hold none of it", async () => {
    const answer = JSON.stringify(await fixture.engine.resolve(link(VIDEOS.current), ANONYMOUS));
    const created = JSON.stringify(await fixture.engine.createDownload({ url: link(VIDEOS.current), format: "mp4-360", caller: ANONYMOUS, ip: "203.0.113.9" }));
    const logs = logText.join("");
    expect(logs.length).toBeGreaterThan(0);
    for (const text of [logs, answer, created]) {
      expect(text).not.toContain(TIKTOK_CHAIN_TOKEN);
      expect(text).not.toContain("tt_chain_token");
      expect(text).not.toContain(TIKTOK_PAGE_COOKIE);
    }
    expect(cdn.requests.every((r) => !r.headers.cookie?.includes("msToken"))).toBe(true);
  });
});

describe("a link made on one instance downloads on another", () => {
  it("the stream's headers and cookies come with it through the shared resolve cache", async () => {
    // what Redis does to a resolve: JSON in, JSON out
    const shared = new Map<string, string>();
    const cache: ResolveCacheStore = {
      get: async (k) => (shared.has(k) ? (JSON.parse(shared.get(k)!) as ResolvedMedia) : undefined),
      set: async (k, media) => void shared.set(k, JSON.stringify(media)),
      delete: async (k) => void shared.delete(k),
      clear: async () => undefined,
    };
    const state = (opts: Parameters<typeof memoryEngineState>[0]) => ({ ...memoryEngineState(opts), resolveCache: cache });
    // the second instance's yt-dlp cannot read the link: only the shared resolve can serve it
    const broken = await writeFakeYtdlp({ type: "error", line: "[TikTok] 7301234567890123451: Unable to extract webpage video data" });
    const config = (ytdlpPath: string) => testConfig({ hostMap: `*.tiktokcdn.test=${cdn.origin}`, ytdlpPath, ytdlpTimeoutMs: 15_000 });
    const fake = await writeFakeYtdlp({ type: "by-link", documents: { [VIDEOS.current]: tiktokDocument({ mediaUrl: `${CDN}/video/tos/play.mp4?sig=2`, style: "current", cookieDomain: ".tiktokcdn.test" }) } });
    const one = await createEngine(config(fake.path), { media: fixture.tools, state, killGraceMs: 300 });
    const two = await createEngine(config(broken.path), { media: fixture.tools, state, killGraceMs: 300 });
    const server = await serveDownloads(two);
    try {
      const created = await one.createDownload({ url: link(VIDEOS.current), format: "mp4-360", caller: ANONYMOUS, ip: "203.0.113.9", options: BARE });
      expect([...shared.values()].join("")).toContain("tt_chain_token");
      const res = await get(`${server.origin}${dlPath(created.downloadUrl)}`);
      expect(res.status).toBe(200);
      expect(res.body.equals(file)).toBe(true);
      expect(await broken.runs()).toHaveLength(0);
    } finally {
      await server.close();
      await one.close();
      await two.close();
    }
  }, 60_000);
});
