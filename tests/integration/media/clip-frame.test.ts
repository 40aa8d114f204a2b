/**
 * A clip's first-frame preview (issue 33 §1, docs/decisions/071) through `GET /api/v1/frame`, on
 * a local CDN that counts what it sends and media whose every frame carries its own number: the
 * JPEG at `t` shows the frame of `t` (its number read back, and its picture next to the frame
 * ffmpeg decodes from the source file at `t`), and only what covers `t` was fetched. On the mock
 * platform, a cached answer whose stream URLs expired costs one fresh resolve, never more.
 */
import { execFile } from "node:child_process";
import http from "node:http";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import express, { type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "#engine/index.ts";
import { ERRORS } from "#engine/errors.ts";
import { locateMediaTools } from "#engine/media/ffmpeg.ts";
import { genericSource } from "#engine/sources/generic/index.ts";
import { createApiRouter } from "#server/api/router.ts";
import { createResolveLimiter } from "#server/api/resolve-limit.ts";
import { testConfig } from "../engine-core/engine-fixture.ts";
import { silentLogger } from "../engine-core/helpers.ts";
import { ensureTimecodeMedia, frameNumbers, mp4IndexBytes, packetBytes, TIMECODE_FPS, TIMECODE_GOP_FRAMES, youtubeShaped, type TimecodeMedia } from "./clip-media.ts";
import { startCountingOrigin, type CountingOrigin } from "./counting-origin.ts";
import { startMockPlatform, type MockPlatform } from "../../mocks/platform.ts";

const execFileAsync = promisify(execFile);
const HOST = "https://frames.example.test";
const YOUTUBE = "https://www.youtube.com/watch?v=frameTimecd";
const GOP_SECONDS = TIMECODE_GOP_FRAMES / TIMECODE_FPS;

let media: TimecodeMedia;
let origin: CountingOrigin;
let engine: Engine;
let tmp: string;
const servers: http.Server[] = [];

/** The API as the host mounts it (on `engine` unless another is given), with a frame limit when one is given; resolves with its origin. */
async function serveApi(frameLimit?: RequestHandler, on: Engine = engine): Promise<string> {
  const app = express();
  app.use("/api/v1", createApiRouter({ engine: on, logger: silentLogger, frameLimit }));
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let api: string;

beforeAll(async () => {
  media = await ensureTimecodeMedia();
  origin = await startCountingOrigin(media.dir);
  engine = await createEngine(testConfig({ hostMap: `frames.example.test=${origin.origin}`, limits: { resolveCacheSeconds: 300 } }), {
    sources: [youtubeShaped(media, HOST), genericSource],
    media: await locateMediaTools({}),
    killGraceMs: 500,
  });
  api = await serveApi();
  tmp = await mkdtemp(path.join(os.tmpdir(), "vidfetch-frames-"));
}, 180_000);
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  await engine?.close();
  await origin?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const frameUrl = (url: string, t: string | number) => `${api}/api/v1/frame?url=${encodeURIComponent(url)}&t=${encodeURIComponent(String(t))}`;

interface Frame {
  file: string;
  /** bytes the CDN sent for the frame alone (the link was resolved before) */
  fetched: number;
  paths: string[];
  headers: Headers;
}

/** One preview: the link resolved first (the resolve's own reads are not the frame's), then the frame, counted. */
async function frame(url: string, t: string | number): Promise<Frame> {
  await engine.resolve(url, { kind: "anonymous" });
  await origin.settled();
  origin.reset();
  const res = await fetch(frameUrl(url, t));
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET /frame answered ${res.status}: ${body.toString("utf8", 0, 300)}`);
  await origin.settled();
  const file = path.join(tmp, `${servers.length}-${Date.now()}-${Math.random().toString(36).slice(2)}.jpg`);
  await writeFile(file, body);
  return { file, fetched: origin.bytes(), paths: origin.requests.map((r) => r.split(" ")[0]!), headers: res.headers };
}

async function probe(file: string): Promise<{ codec_name: string; width: number; height: number }> {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "json", file]);
  return (JSON.parse(stdout) as { streams: Array<{ codec_name: string; width: number; height: number }> }).streams[0]!;
}

/** The preview's PSNR (dB) against the frame ffmpeg decodes from the source file at `t`, scaled the same way. */
async function psnrAgainstSource(preview: string, source: string, t: number): Promise<number> {
  const reference = path.join(tmp, `reference-${t}-${path.basename(source)}.png`);
  await execFileAsync("ffmpeg", ["-v", "error", "-y", "-ss", String(t), "-i", source, "-frames:v", "1", "-vf", "scale=320:-2", reference]);
  const { stderr } = await execFileAsync("ffmpeg", ["-hide_banner", "-i", preview, "-i", reference, "-lavfi", "[0:v]format=yuv420p[a];[1:v]format=yuv420p[b];[a][b]psnr", "-f", "null", "-"]);
  const average = /average:([\d.]+|inf)/.exec(stderr)?.[1];
  return average === "inf" ? Infinity : Number(average);
}

/** The frame of `t` (the picture shown from t on: the next frame at most, as ffmpeg's exact seek gives it). */
function expectShows(n: number, t: number): void {
  expect(n).toBeGreaterThanOrEqual(Math.floor(t * TIMECODE_FPS));
  expect(n).toBeLessThanOrEqual(Math.ceil(t * TIMECODE_FPS));
}

describe("GET /frame: the frame at t, from only what covers t", () => {
  it("YouTube's shape (fragmented MP4 with a sidx): a JPEG 320 px wide of frame t, a few windows of the video fetched, no audio", async () => {
    const got = await frame(YOUTUBE, "1:01.5");
    expect(got.headers.get("content-type")).toBe("image/jpeg");
    expect(got.headers.get("cache-control")).toBe("private, max-age=300");
    expect(await probe(got.file)).toMatchObject({ codec_name: "mjpeg", width: 320, height: 180 });
    const [n] = await frameNumbers(got.file);
    expectShows(n!, 61.5);
    expect(await psnrAgainstSource(got.file, media.fragmentedVideo, 61.5)).toBeGreaterThan(30);
    // the video alone: its index, then the samples from the keyframe before t (60 s) on
    expect(new Set(got.paths)).toEqual(new Set(["/fragmented-video.mp4"]));
    const gop = await packetBytes(media.fragmentedVideo, 60, 60 + GOP_SECONDS);
    expect(got.fetched).toBeLessThanOrEqual(1.5 * gop + 64 * 1024);
    expect(got.fetched).toBeLessThan((await stat(media.fragmentedVideo)).size / 20);
  }, 60_000);

  it("a progressive MP4 (moov first) through the generic source", async () => {
    const got = await frame(`${HOST}/faststart.mp4`, 95.25);
    const [n] = await frameNumbers(got.file);
    expectShows(n!, 95.25);
    expect(await psnrAgainstSource(got.file, media.faststart, 95.25)).toBeGreaterThan(30);
    // the sample table and the GOP's samples (audio interleaved), not the file
    const index = await mp4IndexBytes(media.faststart);
    expect(got.fetched).toBeLessThanOrEqual(index + 1.5 * (await packetBytes(media.faststart, 94, 96)) + 64 * 1024);
    expect(got.fetched).toBeLessThan((await stat(media.faststart)).size / 10);
  }, 60_000);

  it("an HLS stream: the one segment that covers t, nothing else", async () => {
    const got = await frame(`${HOST}/hls/index.m3u8`, "0:41.75");
    const [n] = await frameNumbers(got.file);
    expectShows(n!, 41.75);
    // 2 s segments: 40–42 s is seg-020
    expect(got.paths).toEqual(["/hls/seg-020.ts"]);
    expect(got.fetched).toBe((await stat(path.join(media.dir, "hls", "seg-020.ts"))).size);
  }, 60_000);

  it("a WebM (VP9), from its Cues", async () => {
    const got = await frame(`${HOST}/timecode.webm`, 10);
    const [n] = await frameNumbers(got.file);
    expectShows(n!, 10);
    expect(got.fetched).toBeLessThan((await stat(media.webm)).size / 10);
  }, 60_000);

  it("the first frame at 0, the last second's frame just before the end", async () => {
    expectShows((await frameNumbers((await frame(YOUTUBE, 0)).file))[0]!, 0);
    expectShows((await frameNumbers((await frame(YOUTUBE, "1:59.5")).file))[0]!, 119.5);
  }, 60_000);
});

describe("GET /frame refuses what it cannot show, in JSON", () => {
  const error = async (res: Response) => ({ status: res.status, type: res.headers.get("content-type"), ...((await res.json()) as { error: { code: string; message: string } }).error });

  it("a time at or past the end is 422 clip.out_of_range, a time that is no time 400, a missing one 400", async () => {
    expect(await error(await fetch(frameUrl(YOUTUBE, "2:00")))).toMatchObject({ status: 422, code: "clip.out_of_range", message: "The time must be within the video's length (2:00)." });
    expect(await error(await fetch(frameUrl(YOUTUBE, "soon")))).toMatchObject({ status: 400, code: "request.invalid", message: '"t" must be a time in seconds or h:mm:ss.' });
    expect(await error(await fetch(`${api}/api/v1/frame?url=${encodeURIComponent(YOUTUBE)}`))).toMatchObject({ status: 400, code: "request.invalid" });
    expect((await error(await fetch(frameUrl(YOUTUBE, "2:00")))).type).toMatch(/^application\/json/);
  });

  it("audio without a picture is 422 clip.unavailable; a link that is no link 400", async () => {
    expect(await error(await fetch(frameUrl(`${HOST}/fragmented-audio.m4a`, 5)))).toMatchObject({ status: 422, code: "clip.unavailable", message: "This video has no picture to preview." });
    expect(await error(await fetch(frameUrl("not a link", 5)))).toMatchObject({ status: 400 });
  });

  it("past the per-IP budget, 429 with Retry-After", async () => {
    const limited = await serveApi(createResolveLimiter({ perMinute: 2, what: "frame limit per IP" }));
    const at = (t: number) => fetch(`${limited}/api/v1/frame?url=${encodeURIComponent(YOUTUBE)}&t=${t}`);
    expect((await at(1)).status).toBe(200);
    expect((await at(2)).status).toBe(200);
    const refused = await at(3);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("download.rate_limited");
  }, 60_000);
});

describe("GET /frame on the mock platform: a cached answer whose stream URLs expired", () => {
  const VIDEO = "vidfetch720";
  const LINK = `https://www.youtube.com/watch?v=${VIDEO}`;
  let platform: MockPlatform;
  let platformEngine: Engine;
  let platformApi: string;

  beforeAll(async () => {
    platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
    // two clients: a re-resolve that went on to the next one would show in the player requests
    platformEngine = await createEngine(
      testConfig({ hostMap: platform.hostMap, youtube: { clients: ["VISIONOS", "ANDROID"], apiBaseUrl: "https://www.googleapis.com/youtube/v3" }, limits: { resolveCacheSeconds: 300 } }),
      { media: await locateMediaTools({}), killGraceMs: 500 },
    );
    platformApi = await serveApi(undefined, platformEngine);
  }, 180_000);
  afterAll(async () => {
    await platformEngine?.close();
    await platform?.close();
  });

  /** The link resolved into the cache, then one frame; what the platform saw for the frame alone. */
  async function frameAfterResolve(t: number) {
    await platformEngine.resolve(LINK, { kind: "anonymous" });
    const from = platform.youtubeRequests().length;
    const refusedBefore = platform.mediaRefusals().length;
    const res = await fetch(`${platformApi}/api/v1/frame?url=${encodeURIComponent(LINK)}&t=${t}`);
    const body = Buffer.from(await res.arrayBuffer());
    const seen = platform.youtubeRequests().slice(from).filter((r) => r.videoId === VIDEO);
    return {
      status: res.status,
      body,
      players: seen.filter((r) => r.kind === "player").map((r) => r.client),
      media: seen.filter((r) => r.kind === "media").length,
      refusals: platform.mediaRefusals().slice(refusedBefore).map((r) => `${r.client}:${r.why}`),
    };
  }

  it("one fresh resolve on the same client, the frame read from its URL; the cache keeps the fresh answer", async () => {
    platform.setYouTubeModes({ mediaExpires: { clients: ["VISIONOS"], atByte: 0 } });
    const got = await frameAfterResolve(3);
    expect(got.status, got.body.toString("utf8", 0, 300)).toBe(200);
    expect(got.players).toEqual(["VISIONOS"]);
    expect(got.refusals.length).toBeGreaterThan(0);
    expect(got.refusals.every((r) => r === "VISIONOS:expired")).toBe(true);
    const file = path.join(tmp, "expired-then-fresh.jpg");
    await writeFile(file, got.body);
    expect(await probe(file)).toMatchObject({ codec_name: "mjpeg", width: 320 });
    // the picture of 3 s of the 360p rendition the fresh URL served
    expect(await psnrAgainstSource(file, platform.media.video[360], 3)).toBeGreaterThan(30);

    // the next frame reads the fresh answer from the cache: no player request, nothing refused
    const next = await frameAfterResolve(5);
    expect(next.status).toBe(200);
    expect(next.players).toEqual([]);
    expect(next.refusals).toEqual([]);
  }, 60_000);

  it("refused again after the fresh resolve: the catalogue's error, after one re-resolve and no other client", async () => {
    platform.setYouTubeModes({ mediaRefused: ["VISIONOS"] });
    const got = await frameAfterResolve(3);
    expect(got.status).toBe(ERRORS["upstream.refused"].status);
    expect(JSON.parse(got.body.toString("utf8"))).toMatchObject({ error: { code: "upstream.refused", message: ERRORS["upstream.refused"].message } });
    expect(got.players).toEqual(["VISIONOS"]);
    // the cached answer's first read and the fresh one's, each refused once
    expect(got.refusals).toEqual(["VISIONOS:refused", "VISIONOS:refused"]);
    expect(got.media).toBe(2);
  }, 60_000);
});
