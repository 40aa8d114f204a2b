/**
 * Audio tracks by language (issue 33 §5, §7; docs/decisions/067), end to end through the public
 * API: the mock platform's "vidfetchDub" answers like a dubbed YouTube video (the audio itags 140
 * and 251 once per track, `audioTrack` marking the original English; German's URLs name their
 * language), and its generic host serves an HLS master with two audio renditions. The original
 * is a 440 Hz tone, the dub an 880 Hz one: each file's audio is decoded and its frequency
 * counted, so a test cannot mistake one track for the other.
 */
import { execFile } from "node:child_process";
import http from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "#engine/index.ts";
import { verifyDownload } from "#engine/serve/signed-links.ts";
import { createApiRouter } from "#server/api/router.ts";
import { DUB_TONE_HZ } from "#tests/mocks/media.ts";
import { MOCK_GENERIC_HOST, startMockPlatform, type MockPlatform } from "#tests/mocks/platform.ts";
import { get, testConfig } from "../engine-core/engine-fixture.ts";
import { silentLogger } from "../engine-core/helpers.ts";
import { formatTags } from "./helpers.ts";

const execFileAsync = promisify(execFile);
const DUBBED = "https://www.youtube.com/watch?v=vidfetchDub";
const HLS_DUBBED = `https://${MOCK_GENERIC_HOST}/hls/master-dubbed-de.m3u8`;
const ORIGINAL_HZ = 440;

let platform: MockPlatform;
let engine: Engine;
let server: http.Server;
let origin: string;
let tmp: string;

beforeAll(async () => {
  platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
  engine = await createEngine(testConfig({ hostMap: platform.hostMap, limits: { resolveCacheSeconds: 60 } }), { killGraceMs: 500 });
  const app = express();
  app.use("/api/v1", createApiRouter({ engine, logger: silentLogger }));
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = await mkdtemp(path.join(os.tmpdir(), "vidfetch-audio-tracks-"));
}, 180_000);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  await engine?.close();
  await platform?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const post = (route: string, body: unknown) => fetch(`${origin}/api/v1${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

/** The file behind a created link, saved. */
async function fetchFile(downloadUrl: string, name: string): Promise<string> {
  const res = await get(origin + new URL(downloadUrl).pathname);
  if (res.status !== 200 || res.outcome !== "end") throw new Error(`download answered ${res.status} (${res.outcome}): ${res.body.toString("utf8", 0, 300)}`);
  const file = path.join(tmp, name);
  await writeFile(file, res.body);
  return file;
}

async function download(body: Record<string, unknown>, name: string): Promise<string> {
  const res = await post("/downloads", body);
  if (res.status !== 200) throw new Error(`POST /downloads answered ${res.status}: ${JSON.stringify(await res.json())}`);
  return fetchFile(((await res.json()) as { downloadUrl: string }).downloadUrl, name);
}

/** The audio's main frequency: decoded to mono 16-bit PCM (the first 2 s), sign changes counted. */
async function toneHz(file: string): Promise<number> {
  const { stdout } = await execFileAsync("ffmpeg", ["-v", "error", "-i", file, "-map", "0:a:0", "-t", "2", "-ac", "1", "-ar", "48000", "-f", "s16le", "-"], { encoding: "buffer", maxBuffer: 16 << 20 });
  const samples = new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 2));
  // skip the encoder's priming and any fade-in; count rising zero crossings over what is left
  const from = 4800;
  let rising = 0;
  for (let i = from + 1; i < samples.length; i++) if (samples[i - 1]! < 0 && samples[i]! >= 0) rising++;
  return rising / ((samples.length - from) / 48000);
}

async function audioStream(file: string): Promise<{ codec_name: string; tags?: { language?: string } }> {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name:stream_tags=language", "-of", "json", file]);
  return (JSON.parse(stdout) as { streams: Array<{ codec_name: string; tags?: { language?: string } }> }).streams[0]!;
}

const expectTone = (hz: number, expected: number) => expect(Math.abs(hz - expected), `${hz.toFixed(1)} Hz, expected ${expected}`).toBeLessThan(expected * 0.03);
const GERMAN = /^(ger|deu)$/;

describe("a YouTube video with a dubbed track", () => {
  it("resolve lists both tracks, the original English as the default", async () => {
    const res = await post("/resolve", { url: DUBBED });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { audioTracks: unknown };
    expect(answer.audioTracks).toEqual([
      { language: "en", name: "English original", default: true },
      { language: "de", name: "German", default: false },
    ]);
  });

  it("the default MP4 carries the original; audioLanguage de carries the dub, tagged German", async () => {
    const original = await download({ url: DUBBED, format: "mp4-720", tags: false }, "default.mp4");
    expectTone(await toneHz(original), ORIGINAL_HZ);
    const dubbed = await download({ url: DUBBED, format: "mp4-720", tags: false, audioLanguage: "de" }, "de.mp4");
    expectTone(await toneHz(dubbed), DUB_TONE_HZ);
    expect((await audioStream(dubbed)).tags?.language).toMatch(GERMAN);
  });

  it("WEBM takes the dub's Opus track, MP3 is encoded from the dub", async () => {
    const webm = await download({ url: DUBBED, format: "webm", tags: false, audioLanguage: "de" }, "de.webm");
    expect((await audioStream(webm)).codec_name).toBe("opus");
    expectTone(await toneHz(webm), DUB_TONE_HZ);
    expectTone(await toneHz(await download({ url: DUBBED, format: "webm", tags: false }, "default.webm")), ORIGINAL_HZ);
    const mp3 = await download({ url: DUBBED, format: "mp3-128", audioLanguage: "de" }, "de.mp3");
    expectTone(await toneHz(mp3), DUB_TONE_HZ);
    // no track to carry it: the ID3 tag says it (TLAN)
    expect(await formatTags(mp3)).toMatchObject({ language: "ger" });
    expect(await formatTags(await download({ url: DUBBED, format: "mp3-128" }, "default.mp3"))).not.toHaveProperty("language");
  });

  it("MP4 360p (itag 18 holds the original audio too) is the dub's track with its picture", async () => {
    const dubbed = await download({ url: DUBBED, format: "mp4-360", tags: false, audioLanguage: "de" }, "de-360.mp4");
    expectTone(await toneHz(dubbed), DUB_TONE_HZ);
    const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=height", "-of", "csv=p=0", dubbed]);
    expect(Number(stdout)).toBe(360);
    expectTone(await toneHz(await download({ url: DUBBED, format: "mp4-360", tags: false }, "default-360.mp4")), ORIGINAL_HZ);
  });

  it("GET /download takes audioLanguage into the signed link", async () => {
    const res = await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(DUBBED)}&format=m4a&audioLanguage=de`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(verifyDownload("engine-core-test-secret", location.split("/").pop()!, 0).options).toMatchObject({ audioLanguage: "de" });
    expectTone(await toneHz(await fetchFile(location, "de.m4a")), DUB_TONE_HZ);
  });

  it("a language the video does not have is a 422, on POST and GET alike", async () => {
    const res = await post("/downloads", { url: DUBBED, format: "mp4-720", audioLanguage: "fr" });
    expect(res.status).toBe(422);
    expect((await errorOf(res)).code).toBe("audio.language_unavailable");
    const viaGet = await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(DUBBED)}&format=mp3-128&audioLanguage=fr`, { redirect: "manual" });
    expect(viaGet.status).toBe(422);
    expect((await errorOf(viaGet)).code).toBe("audio.language_unavailable");
    const malformed = await post("/downloads", { url: DUBBED, format: "mp4-720", audioLanguage: "de;rm" });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).code).toBe("request.invalid");
  });
});

describe("an HLS master with two audio renditions", () => {
  it("resolve lists them, the DEFAULT=YES one as the default", async () => {
    const answer = (await (await post("/resolve", { url: HLS_DUBBED })).json()) as { audioTracks: unknown };
    expect(answer.audioTracks).toEqual([
      { language: "en", name: "English", default: true },
      { language: "de", name: "German", default: false },
    ]);
  });

  it("the default MP4 carries the DEFAULT rendition; audioLanguage de the other", async () => {
    expectTone(await toneHz(await download({ url: HLS_DUBBED, format: "mp4-720", tags: false }, "hls-default.mp4")), ORIGINAL_HZ);
    const dubbed = await download({ url: HLS_DUBBED, format: "mp4-720", tags: false, audioLanguage: "de" }, "hls-de.mp4");
    expectTone(await toneHz(dubbed), DUB_TONE_HZ);
    expect((await audioStream(dubbed)).tags?.language).toMatch(GERMAN);
  });
});
