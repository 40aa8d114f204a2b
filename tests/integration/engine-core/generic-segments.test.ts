import { execFile } from "node:child_process";
import { readFile, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine, type MediaOptions } from "#engine/index.ts";
import { locateMediaTools, type MediaTools } from "#engine/media/ffmpeg.ts";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { testConfig, get } from "./engine-fixture.ts";
import { startServer, type TestServer } from "./helpers.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { workingMediaChildren } from "../../support/media-children.ts";

/**
 * Generic HLS/DASH links end to end with the production adapters: the segment reader fetches
 * segments in parallel from a local fake CDN and feeds them to ffmpeg through pipes.
 */
const execFileAsync = promisify(execFile);
let media: MockMediaSet;
let tools: MediaTools;
let cdn: TestServer;
let engine: Engine;
let app: http.Server;
let origin: string;
let tmp: string;
/** the same files as `cdn`, its playlists' segment URLs signed (`?t=`) and expiring mid-download: see `expiring` */
let signing: TestServer;
/**
 * How `signing` expires its URLs, like a CDN whose signed segment URLs run out: every playlist
 * it serves hands out URLs of a new generation; the first request for a segment numbered `from`
 * or higher finds every URL handed out so far expired, answered with `status`, until a playlist
 * is read again. Null: nothing expires.
 */
let expiring: { from: number; status: 403 | 410; fired: boolean; through: number; refused: string[] } | null = null;
let issued = 0;
/** the same files as `cdn`, segment bodies paced (4 KiB every 100 ms: a segment takes seconds); responses not yet ended or closed */
let slow: TestServer;
let slowOpen = 0;

/** the mock media file a CDN request names, or null outside the media folder */
function mediaFile(url: string | undefined): string | null {
  const rel = decodeURIComponent(new URL(url ?? "/", "http://x").pathname).replace(/^\/+/, "");
  const file = path.join(media.dir, rel);
  return file.startsWith(media.dir) ? file : null;
}

beforeAll(async () => {
  media = await ensureMockMedia(path.join(os.tmpdir(), "vidfetch-test-media"));
  tools = await locateMediaTools({});
  tmp = await mkdtemp(path.join(os.tmpdir(), "engine-core-seg-"));
  cdn = await startServer((req, res) => {
    const file = mediaFile(req.url);
    if (!file) return void res.writeHead(403).end();
    readFile(file).then(
      (data) => {
        const type = file.endsWith(".m3u8") ? "application/vnd.apple.mpegurl" : file.endsWith(".mpd") ? "application/dash+xml" : file.endsWith(".ts") ? "video/mp2t" : "video/mp4";
        const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
        if (range) {
          const start = Number(range[1]);
          const end = range[2] ? Math.min(Number(range[2]), data.length - 1) : data.length - 1;
          res.writeHead(206, { "content-type": type, "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${data.length}`, "accept-ranges": "bytes" });
          res.end(data.subarray(start, end + 1));
        } else {
          res.writeHead(200, { "content-type": type, "content-length": data.length, "accept-ranges": "bytes" });
          res.end(req.method === "HEAD" ? undefined : data);
        }
      },
      () => res.writeHead(404).end(),
    );
  });
  slow = await startServer((req, res) => {
    const file = mediaFile(req.url);
    if (!file) return void res.writeHead(403).end();
    readFile(file).then(
      (data) => {
        if (!file.endsWith(".ts")) return void res.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" }).end(data);
        slowOpen++;
        let done = false;
        const finish = () => {
          if (!done) slowOpen--;
          done = true;
        };
        res.once("close", finish);
        res.writeHead(200, { "content-type": "video/mp2t", "content-length": data.length });
        let at = 0;
        const pump = () => {
          if (res.destroyed) return;
          if (at >= data.length) return void res.end(finish);
          res.write(data.subarray(at, at + 4 * 1024));
          at += 4 * 1024;
          setTimeout(pump, 100);
        };
        pump();
      },
      () => res.writeHead(404).end(),
    );
  });
  signing = await startServer((req, res) => {
    const file = mediaFile(req.url);
    if (!file) return void res.writeHead(403).end();
    readFile(file).then(
      (data) => {
        if (file.endsWith(".m3u8")) {
          const generation = ++issued;
          const signed = data
            .toString("utf8")
            .split("\n")
            .map((line) => (line.endsWith(".ts") && !line.startsWith("#") ? `${line}?t=${generation}` : line))
            .join("\n");
          return void res.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" }).end(signed);
        }
        const number = Number(/seg-(\d+)\.ts$/.exec(file)?.[1] ?? -1);
        const generation = Number(new URL(req.url ?? "/", "http://x").searchParams.get("t") ?? 0);
        if (expiring && number >= expiring.from && !expiring.fired) {
          expiring.fired = true;
          expiring.through = issued;
        }
        if (expiring?.fired && generation <= expiring.through) {
          expiring.refused.push(req.url ?? "");
          return void res.writeHead(expiring.status).end();
        }
        res.writeHead(200, { "content-type": "video/mp2t", "content-length": data.length }).end(data);
      },
      () => res.writeHead(404).end(),
    );
  });
  engine = await createEngine(
    testConfig({ hostMap: `media.example.com=${cdn.origin},slow.example.com=${slow.origin},signed.example.com=${signing.origin}` }),
    { media: tools },
  );
  app = http.createServer((req, res) => {
    const m = /^\/api\/v1\/dl\/([^/?]+)/.exec(req.url ?? "");
    if (m) void engine.handleDownload(m[1]!, req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});

afterAll(async () => {
  app?.closeAllConnections();
  await new Promise((r) => app?.close(r));
  await engine?.close();
  await cdn?.close();
  await slow?.close();
  await signing?.close();
});

async function download(link: string, format: string, options?: MediaOptions): Promise<string> {
  const d = await engine.createDownload({ url: link, format, caller: { kind: "anonymous" }, ip: "192.0.2.50", ...(options ? { options } : {}) });
  const res = await get(origin + new URL(d.downloadUrl).pathname);
  expect(res.status, res.body.toString("utf8", 0, 300)).toBe(200);
  expect(res.outcome).toBe("end");
  const file = path.join(tmp, `${format}-${Math.random().toString(36).slice(2)}.${d.filename.split(".").pop()}`);
  await writeFile(file, res.body);
  return file;
}

async function probe(file: string) {
  const { stdout } = await execFileAsync(tools.ffprobe, ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", file]);
  return JSON.parse(stdout) as { streams: Array<{ codec_name: string; codec_type: string; height?: number }>; format: { duration: string } };
}

describe("generic HLS and DASH through the segment reader", () => {
  it("HLS master: 720p TS video + separate audio group → MP4", async () => {
    const file = await download("https://media.example.com/hls/master.m3u8", "mp4-720");
    const info = await probe(file);
    expect(info.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(info.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    expect(Math.abs(Number(info.format.duration) - media.durationSeconds)).toBeLessThan(1);
  });

  it("HLS master: the segments fetched while the link was made are the download's, each asked for once", async () => {
    const link = `https://media.example.com/hls/master.m3u8?prefetch=${Date.now()}`;
    const mark = cdn.requests.length;
    const d = await engine.createDownload({ url: link, format: "mp4-720", caller: { kind: "anonymous" }, ip: "192.0.2.51" });
    const full = (prefix: string) => cdn.requests.slice(mark).filter((r) => r.url.startsWith(prefix) && r.url.endsWith(".ts") && !r.headers.range).map((r) => r.url);
    // before the link is opened, the first segments of both inputs are on their way
    const deadline = Date.now() + 10_000;
    while ((full("/hls/ts-720/").length === 0 || full("/hls/audio/").length === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const early = [...full("/hls/ts-720/"), ...full("/hls/audio/")];
    expect(early.length).toBeGreaterThan(1);
    const res = await get(origin + new URL(d.downloadUrl).pathname);
    expect(res.status).toBe(200);
    expect(res.outcome).toBe("end");
    const file = path.join(tmp, "prefetched.mp4");
    await writeFile(file, res.body);
    const info = await probe(file);
    expect(info.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(Math.abs(Number(info.format.duration) - media.durationSeconds)).toBeLessThan(1);
    // no segment was fetched twice: the reader took what had been fetched before it opened
    for (const prefix of ["/hls/ts-720/", "/hls/audio/"]) {
      const urls = full(prefix);
      expect(new Set(urls).size).toBe(urls.length);
      expect(urls.length).toBeGreaterThan(1);
    }
  }, 20_000);

  it("a client leaving a download whose first segments were prefetched leaves no ffmpeg and no upstream response open", async () => {
    // (left alone, each open segment response would last seconds: longer than the polls below)
    const d = await engine.createDownload({ url: `https://slow.example.com/hls/master.m3u8?leave=${Date.now()}`, format: "mp4-720", caller: { kind: "anonymous" }, ip: "192.0.2.52" });
    // the prefetched segments are on their way before the link is opened
    await expect.poll(() => slowOpen, { timeout: 10_000, interval: 10 }).toBeGreaterThan(0);
    // the client opens the link and leaves while the segments are still arriving
    const req = http.get(origin + new URL(d.downloadUrl).pathname, { agent: false });
    req.on("error", () => undefined);
    await new Promise((r) => setTimeout(r, 300));
    req.destroy();
    await expect.poll(() => slowOpen, { timeout: 5000 }).toBe(0);
    const ffmpegs = async () => (await workingMediaChildren()).length;
    await expect.poll(ffmpegs, { timeout: 5000 }).toBe(0);
  }, 30_000);

  /** A download from the signing CDN's HLS master whose URLs expire at segment `from` (answered `status`); what the CDN saw of it. */
  async function expiringDownload(status: 403 | 410, from: number, options?: MediaOptions) {
    const state = { from, status, fired: false, through: 0, refused: [] as string[] };
    expiring = state;
    const mark = signing.requests.length;
    try {
      const file = await download(`https://signed.example.com/hls/master.m3u8?expiring=${status}-${from}-${Date.now()}`, "mp4-720", options);
      const seen = signing.requests.slice(mark).map((r) => new URL(r.url, "http://x"));
      const segments = seen.filter((u) => u.pathname.endsWith(".ts"));
      return {
        info: await probe(file),
        refused: state.refused.length,
        masters: seen.filter((u) => u.pathname === "/hls/master.m3u8").length,
        segments: [...new Set(segments.map((u) => u.pathname))].sort(),
        fresh: [...new Set(segments.filter((u) => Number(u.searchParams.get("t")) > state.through).map((u) => u.pathname))].sort(),
      };
    } finally {
      expiring = null;
    }
  }

  for (const status of [403, 410] as const) {
    it(`a clip whose segment URLs expire (${status}) mid-download re-resolves once and goes on with its own covering segments`, async () => {
      // 2 s segments: 2.5–5 s is seg-001 and seg-002 of three, in the video and the audio playlist; seg-002 finds the URLs expired
      const got = await expiringDownload(status, 2, { tags: true, start: 2.5, end: 5 });
      expect(got.refused).toBeGreaterThan(0);
      expect(got.masters).toBe(2);
      expect(got.info.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
      expect(got.info.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
      // a keyframe cut from the first covering segment's start (2 s) to 5 s
      expect(Math.abs(Number(got.info.format.duration) - 3)).toBeLessThan(0.5);
      const covering = ["/hls/audio/seg-001.ts", "/hls/audio/seg-002.ts", "/hls/ts-720/seg-001.ts", "/hls/ts-720/seg-002.ts"];
      expect(got.segments).toEqual(covering);
      // the fresh URLs were read from the segment refused on, for the clip's own segments only
      expect(got.fresh).toEqual(expect.arrayContaining(["/hls/audio/seg-002.ts", "/hls/ts-720/seg-002.ts"]));
      expect(covering).toEqual(expect.arrayContaining(got.fresh));
    }, 30_000);
  }

  it("a whole download whose video and audio segment URLs expire together re-resolves once for both", async () => {
    const got = await expiringDownload(403, 1);
    expect(got.refused).toBeGreaterThan(0);
    expect(got.masters).toBe(2);
    expect(got.fresh).toEqual(expect.arrayContaining(["/hls/audio/seg-002.ts", "/hls/ts-720/seg-002.ts"]));
    expect(got.info.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(Math.abs(Number(got.info.format.duration) - media.durationSeconds)).toBeLessThan(1);
  }, 30_000);

  it("DASH SegmentTemplate → MP3", async () => {
    const file = await download("https://media.example.com/dash/manifest.mpd", "mp3-128");
    const info = await probe(file);
    expect(info.streams[0]?.codec_name).toBe("mp3");
    expect(Math.abs(Number(info.format.duration) - media.durationSeconds)).toBeLessThan(1);
  });

  it("a direct file link is streamed as is (tags off)", async () => {
    const file = await download("https://media.example.com/progressive-360.mp4", "mp4-360", { tags: false });
    expect((await readFile(file)).equals(await readFile(media.progressive))).toBe(true);
  });
});
