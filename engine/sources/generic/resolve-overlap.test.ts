/**
 * Resolving a generic link spends its time waiting on the origin: these tests watch the requests
 * a local origin receives (with latency per request) to check that the waits overlap — media
 * playlists all at once, each stream probed as soon as its own playlist is in, a segment probed
 * from its first bytes only, a direct MP4 read only as far as its index.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineConfig } from "../../config.ts";
import { locateMediaTools } from "../../media/ffmpeg.ts";
import { probeStream } from "../../media/probe.ts";
import { createOutboundFetch } from "../../outbound/outbound-fetch.ts";
import type { SourceContext } from "../types.ts";
import { PROBE_BYTES } from "./fetch-bytes.ts";
import { describingBytes, genericSource, SEGMENT_PROBE_BYTES } from "./index.ts";
import { Readable } from "node:stream";
import { workingMediaChildren } from "#tests/support/media-children.ts";

const run = promisify(execFile);
const logger = pino({ level: "silent" });

interface Seen {
  path: string;
  range: string | undefined;
  arrived: number;
  answered: number | null;
  /** bytes written before the client went away or the body ended */
  sent: number;
}

let dir: string;
let server: http.Server;
let origin: string;
let ctx: SourceContext;
const seen: Seen[] = [];
/** extra wait before answering, by path (on top of the base latency) */
const delay = new Map<string, number>();
const BASE_LATENCY_MS = 150;
const files = new Map<string, Buffer>();

function playlist(segment: string, seconds = 2): string {
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:${seconds}\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:${seconds}.0,\n${segment}\n#EXT-X-ENDLIST\n`;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-resolve-overlap-"));
  const ff = (args: string[]) => run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { cwd: dir });
  // 2 s of 320x240 video and of audio as TS segments; 20 s of faststart MP4 larger than PROBE_BYTES
  await Promise.all([
    ff(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=24:duration=2", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "2M", "-f", "mpegts", "video.ts"]),
    ff(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2", "-c:a", "aac", "-f", "mpegts", "audio.ts"]),
    ff([
      "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=24:duration=20",
      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=20",
      "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "1M", "-c:a", "aac", "-movflags", "+faststart", "direct.mp4",
    ]),
  ]);
  // the same video as fMP4: an init section (EXT-X-MAP) and one media segment
  await ff(["-i", "video.ts", "-c", "copy", "-f", "hls", "-hls_segment_type", "fmp4", "-hls_time", "10", "-hls_fmp4_init_filename", "init.mp4", "-hls_segment_filename", "fseg-%d.m4s", "fmp4.m3u8"]);
  for (const f of ["video.ts", "audio.ts", "direct.mp4", "init.mp4", "fseg-0.m4s"]) files.set(`/${f}`, await fs.readFile(path.join(dir, f)));
  files.set("/fmp4/index.m3u8", Buffer.from(playlist("../fseg-0.m4s").replace("#EXTINF", '#EXT-X-MAP:URI="../init.mp4"\n#EXTINF')));
  files.set("/missing/index.m3u8", Buffer.from(playlist("../gone.ts")));
  files.set("/codecs/master.m3u8", Buffer.from(
    [
      "#EXTM3U",
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,URI="audio.m3u8"',
      ...[1, 2, 3, 4].flatMap((n) => [`#EXT-X-STREAM-INF:BANDWIDTH=${n}000000,RESOLUTION=320x240,CODECS="avc1.42c00d,mp4a.40.2",AUDIO="aud"`, `v${n}.m3u8`]),
      "",
    ].join("\n"),
  ));
  for (const n of [1, 2, 3, 4]) files.set(`/codecs/v${n}.m3u8`, Buffer.from(playlist("../video.ts")));
  files.set("/codecs/audio.m3u8", Buffer.from(playlist("../audio.ts")));
  // no CODECS: each stream must be probed
  files.set("/probe/master.m3u8", Buffer.from(['#EXTM3U', '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,URI="audio.m3u8"', '#EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="aud"', "video.m3u8", ""].join("\n")));
  files.set("/probe/video.m3u8", Buffer.from(playlist("../video.ts")));
  files.set("/probe/audio.m3u8", Buffer.from(playlist("../audio.ts")));

  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const entry: Seen = { path: url.pathname, range: req.headers.range, arrived: performance.now(), answered: null, sent: 0 };
    seen.push(entry);
    const body = files.get(url.pathname);
    setTimeout(() => {
      entry.answered = performance.now();
      if (!body) return void res.writeHead(404).end();
      const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
      const start = m ? Number(m[1]) : 0;
      const end = m && m[2] ? Math.min(Number(m[2]), body.length - 1) : body.length - 1;
      res.writeHead(m ? 206 : 200, {
        "content-type": url.pathname.endsWith(".m3u8") ? "application/vnd.apple.mpegurl" : url.pathname.endsWith(".mp4") ? "video/mp4" : "video/mp2t",
        "content-length": String(end - start + 1),
        ...(m ? { "content-range": `bytes ${start}-${end}/${body.length}` } : {}),
      });
      // paced like a slow origin (32 KiB every 20 ms) so a reader that stops early is seen to stop
      let at = start;
      const pump = () => {
        if (res.destroyed) return;
        if (at > end) return void res.end();
        const piece = body.subarray(at, Math.min(end + 1, at + 32 * 1024));
        at += piece.length;
        entry.sent += piece.length;
        res.write(piece);
        setTimeout(pump, 20);
      };
      pump();
    }, BASE_LATENCY_MS + (delay.get(url.pathname) ?? 0));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx = {
    fetch: createOutboundFetch({ allowPrivate: true, timeoutMs: 10_000, logger, retries: 0 }),
    config: {} as EngineConfig,
    logger,
    media: await locateMediaTools({}),
  };
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

async function resolve(url: string) {
  seen.length = 0;
  const r = await genericSource.resolve({ kind: "generic", url }, ctx);
  if (!r.ok) throw new Error(`${r.code}: ${r.detail}`);
  return r.media;
}

describe("generic resolve: overlapping the waits on the origin", () => {
  it("fetches every media playlist of an HLS master at once (audio rendition included)", async () => {
    const media = await resolve(`${origin}/codecs/master.m3u8`);
    expect(media.streams.map((s) => s.id)).toEqual(["hls-audio-0", "hls-0", "hls-1", "hls-2", "hls-3"]);
    const playlists = seen.filter((s) => /\/codecs\/(v\d|audio)\.m3u8$/.test(s.path));
    expect(playlists).toHaveLength(5);
    // all five were asked for before the origin answered any of them
    const firstAnswer = Math.min(...playlists.map((s) => s.answered!));
    for (const p of playlists) expect(p.arrived).toBeLessThan(firstAnswer);
    // the master named the codecs: nothing was probed
    expect(seen.some((s) => s.path.endsWith(".ts"))).toBe(false);
  });

  it("probes a stream as soon as its playlist is in, while a slower playlist still loads, from the first bytes of its segment", async () => {
    delay.set("/probe/audio.m3u8", 600);
    try {
      const media = await resolve(`${origin}/probe/master.m3u8`);
      expect(media.streams.find((s) => s.kind === "video")).toMatchObject({ vcodec: "h264", width: 320, height: 240 });
      expect(media.streams.find((s) => s.kind === "audio")).toMatchObject({ acodec: "aac", audioSampleRate: 48000 });
      const audioPlaylist = seen.find((s) => s.path === "/probe/audio.m3u8")!;
      const videoProbe = seen.find((s) => s.path === "/video.ts")!;
      expect(videoProbe.arrived).toBeLessThan(audioPlaylist.answered!);
      expect(videoProbe.range).toBe(`bytes=0-${SEGMENT_PROBE_BYTES - 1}`);
      // the short read was enough: the segment was asked for once
      expect(seen.filter((s) => s.path === "/video.ts")).toHaveLength(1);
    } finally {
      delay.clear();
    }
  });

  it("probes an fMP4 stream from its init section and first segment, whichever arrives first", async () => {
    // the segment's bytes come in before the init section's: they wait, the init section goes first
    delay.set("/init.mp4", 300);
    try {
      const media = await resolve(`${origin}/fmp4/index.m3u8`);
      expect(media.streams[0]).toMatchObject({ vcodec: "h264", width: 320, height: 240, container: "mp4" });
      const init = seen.find((s) => s.path === "/init.mp4")!;
      const segment = seen.find((s) => s.path === "/fseg-0.m4s")!;
      // asked for together, not one after the other; the first read was enough (the prober got the
      // init section before the segment's bytes)
      expect(segment.arrived).toBeLessThan(init.answered!);
      expect(seen.filter((s) => s.path === "/fseg-0.m4s")).toHaveLength(1);
    } finally {
      delay.clear();
    }
  });

  it("fails a probe whose segment is missing with the origin's answer, and leaves no prober running", async () => {
    await expect(resolve(`${origin}/missing/index.m3u8`)).rejects.toThrow(/video\.not_found/);
    expect(await workingMediaChildren({ withProbers: true })).toEqual([]);
  });

  it("reads a faststart MP4 only as far as its index, and describes it as a megabyte would", async () => {
    const file = files.get("/direct.mp4")!;
    expect(file.length).toBeGreaterThan(PROBE_BYTES);
    const media = await resolve(`${origin}/direct.mp4`);
    const head = seen.find((s) => s.path === "/direct.mp4")!;
    expect(head.range).toBe(`bytes=0-${PROBE_BYTES - 1}`);
    // the reader stopped once ftyp + moov (+ a little media) had arrived; the origin noticed
    await new Promise((r) => setTimeout(r, 100));
    expect(head.sent).toBeLessThan(PROBE_BYTES / 2);
    const full = await probeStream(ctx.media, Readable.from([file.subarray(0, PROBE_BYTES)]));
    const v = full.streams.find((s) => s.kind === "video")!;
    const a = full.streams.find((s) => s.kind === "audio")!;
    expect(media.streams[0]).toMatchObject({ kind: "progressive", container: "mp4", vcodec: "h264", acodec: "aac", width: v.width, height: v.height, fps: v.fps, audioSampleRate: a.sampleRate, contentLength: file.length });
    expect(media.details.durationSeconds).toBeCloseTo(full.durationSeconds!, 2);
  });
});

describe("describingBytes", () => {
  const box = (type: string, size: number) => {
    const b = Buffer.alloc(Math.min(size, 64));
    b.writeUInt32BE(size, 0);
    b.write(type, 4, "latin1");
    return b;
  };
  it("reads an MP4 to the end of its moov plus some media, or to the mdat header when the moov comes last", () => {
    const ftyp = box("ftyp", 32);
    const withMoov = Buffer.concat([ftyp.subarray(0, 32), box("moov", 5000)]);
    expect(describingBytes(withMoov)).toBe(32 + 5000 + 64 * 1024);
    const mdatFirst = Buffer.concat([ftyp.subarray(0, 32), box("free", 8).subarray(0, 8), box("mdat", 9_000_000)]);
    expect(describingBytes(mdatFirst)).toBe(40 + 16);
  });
  it("keeps reading while the boxes so far say nothing, and reads anything else up to the limit", () => {
    expect(describingBytes(Buffer.from("ftyp"))).toBeNull();
    expect(describingBytes(box("ftyp", 32).subarray(0, 20))).toBeNull();
    expect(describingBytes(Buffer.from("#EXTM3U\n#EXT-X-VERSION:3\n"))).toBe(Number.POSITIVE_INFINITY);
    expect(describingBytes(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0]))).toBe(Number.POSITIVE_INFINITY);
  });
});
