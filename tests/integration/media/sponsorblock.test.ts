/**
 * SponsorBlock (issue 33 §4, §8; docs/decisions/065), end to end: the engine on a local CDN with a
 * fake YouTube source and a fake SponsorBlock API reached through the engine's host map
 * (`sponsor.ajay.app`, the default SPONSORBLOCK_API_URL). Segments cut out are gone from the file
 * (its duration, read by ffprobe, is the source's less the spans), segments as chapters are read
 * back with `ffprobe -show_chapters`, an API that is down or slow leaves the file whole and says
 * so in `X-SponsorBlock`, and a link or format it cannot apply to is refused before anything streams.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "#engine/index.ts";
import { isEngineError } from "#engine/errors.ts";
import { locateMediaTools } from "#engine/media/ffmpeg.ts";
import { parseMediaOptions } from "#engine/media/options/media-options.ts";
import type { SourceAdapter } from "#engine/sources/types.ts";
import { startFakeSponsorBlock, type FakeSponsorBlock } from "#tests/mocks/sponsorblock.ts";
import { dlPath, get, serveDownloads, testConfig } from "../engine-core/engine-fixture.ts";
import { startCountingOrigin, type CountingOrigin } from "./counting-origin.ts";
import { fakeYoutube } from "./fake-youtube.ts";
import { ffprobeFile } from "./helpers.ts";

const execFileAsync = promisify(execFile);
const HOST = "sb.example.test";
const SECONDS = 20;
const VIDEO_ID = "sbVideo0001";
const AUDIO_ID = "sbAudio0001";
const BARE_ID = "sbNoSegs001";
/** the fake API's segments of both videos: an intro, a sponsor read and a self-promotion */
const SEGMENTS = [
  { category: "intro", segment: [0, 2] as [number, number] },
  { category: "sponsor", segment: [5, 8] as [number, number] },
  { category: "selfpromo", segment: [12, 13.5] as [number, number] },
];

let dir: string;
let origin: CountingOrigin;
let sponsor: FakeSponsorBlock;
const started: Array<{ engine: Engine; server: { origin: string; close(): Promise<void> } }> = [];

const size = async (file: string) => (await stat(path.join(dir, file))).size;
const platform = fakeYoutube({
  [VIDEO_ID]: {
    title: "Sponsored",
    seconds: SECONDS,
    streams: async () => [
      { id: "18", kind: "progressive", url: `https://${HOST}/video.mp4`, transport: { type: "direct" }, container: "mp4", vcodec: "h264", acodec: "aac", width: 640, height: 360, contentLength: await size("video.mp4") },
    ],
  },
  [AUDIO_ID]: {
    title: "Sponsored audio",
    seconds: SECONDS,
    streams: async () => [{ id: "140", kind: "audio", url: `https://${HOST}/audio.m4a`, transport: { type: "direct" }, container: "m4a", acodec: "aac", bitrate: 128_000, contentLength: await size("audio.m4a") }],
  },
  [BARE_ID]: {
    title: "No segments",
    seconds: SECONDS,
    streams: async () => [{ id: "140", kind: "audio", url: `https://${HOST}/audio.m4a`, transport: { type: "direct" }, container: "m4a", acodec: "aac", bitrate: 128_000, contentLength: await size("audio.m4a") }],
  },
});
/** any other link: a generic source with the same audio file */
const generic: SourceAdapter = {
  platform: "generic",
  matches: (parsed) => parsed.kind === "generic",
  async resolve(parsed) {
    const media = await platform.resolve({ kind: "youtube", id: AUDIO_ID, url: `https://www.youtube.com/watch?v=${AUDIO_ID}` }, {} as never);
    if (!media.ok) return media;
    return { ok: true, media: { ...media.media, platform: "generic", sourceUrl: parsed.url, details: { ...media.media.details, platform: "generic" } } };
  },
};

/** An engine of its own (its SponsorBlock client rests after a failure): the CDN and the fake API in its host map. */
async function startEngine(): Promise<{ engine: Engine; server: { origin: string; close(): Promise<void> } }> {
  const hostMap = `${HOST}=${origin.origin},sponsor.ajay.app=${sponsor.origin}`;
  const engine = await createEngine(testConfig({ hostMap }), { sources: [platform, generic], media: await locateMediaTools({}), killGraceMs: 500 });
  const server = await serveDownloads(engine);
  started.push({ engine, server });
  return { engine, server };
}

let nextIp = 1;
async function download(env: { engine: Engine; server: { origin: string } }, id: string, format: string, options: Record<string, unknown>) {
  const created = await env.engine.createDownload({
    url: `https://www.youtube.com/watch?v=${id}`,
    format,
    caller: { kind: "anonymous" },
    ip: `198.51.100.${nextIp++}`,
    options: parseMediaOptions(options),
  });
  const t0 = Date.now();
  const res = await get(env.server.origin + dlPath(created.downloadUrl));
  const ms = Date.now() - t0;
  if (res.status !== 200 || res.outcome !== "end") throw new Error(`download answered ${res.status} (${res.outcome}): ${res.body.toString("utf8", 0, 300)}`);
  const file = path.join(dir, `${nextIp}-${created.filename.replace(/[^\w.()-]+/g, "_")}`);
  await writeFile(file, res.body);
  return { file, header: res.headers["x-sponsorblock"], ms, bytes: created.bytes };
}

/** the decoded audio's length, from its sample count (independent of the container's stated duration) */
async function decodedAudioSeconds(file: string): Promise<number> {
  const { stderr } = await execFileAsync("ffmpeg", ["-hide_banner", "-i", file, "-map", "0:a:0", "-af", "astats=measure_perchannel=none", "-f", "null", "-"]);
  const samples = Number(/Number of samples: (\d+)/.exec(stderr)?.[1]);
  const rate = Number(/(\d+) Hz/.exec(stderr)?.[1]);
  return samples / rate;
}

async function chaptersOf(file: string): Promise<Array<{ title: string; start: number; end: number }>> {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-print_format", "json", "-show_chapters", file]);
  const json = JSON.parse(stdout) as { chapters: Array<{ start_time: string; end_time: string; tags?: { title?: string } }> };
  return json.chapters.map((c) => ({ title: c.tags?.title ?? "", start: Number(c.start_time), end: Number(c.end_time) }));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-sponsorblock-"));
  const video = ["-f", "lavfi", "-i", `testsrc2=size=640x360:rate=25:duration=${SECONDS}`, "-f", "lavfi", "-i", `sine=f=440:d=${SECONDS}:r=44100`];
  await execFileAsync("ffmpeg", ["-v", "error", "-y", ...video, "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart", path.join(dir, "video.mp4")]);
  await execFileAsync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `sine=f=330:d=${SECONDS}:r=44100`, "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", path.join(dir, "audio.m4a")]);
  origin = await startCountingOrigin(dir);
  sponsor = await startFakeSponsorBlock();
  sponsor.videos.set(VIDEO_ID, SEGMENTS);
  sponsor.videos.set(AUDIO_ID, SEGMENTS);
}, 120_000);
afterAll(async () => {
  for (const { engine, server } of started) {
    await server.close();
    await engine.close();
  }
  await origin?.close();
  await sponsor?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("SponsorBlock segments cut out", () => {
  it("an MP3 is the source less the sponsor read and the self-promotion", async () => {
    const env = await startEngine();
    const { file, header, bytes } = await download(env, AUDIO_ID, "mp3-128", { sponsorblock: { categories: ["sponsor", "selfpromo"], action: "cut" } });
    expect(header).toBe("applied");
    // the link's size was the cut file's already (SponsorBlock asked when the link was made): 15.5 s at 128 kbps and the tag, not 20 s
    expect(bytes).toBeGreaterThanOrEqual((15.5 * 128_000) / 8);
    expect(bytes).toBeLessThan((17 * 128_000) / 8);
    const probe = await ffprobeFile(file);
    // 20 − 3 − 1.5 s; an MP3 frame is 26 ms, and the encoder's priming adds one
    expect(probe.duration).toBeGreaterThan(15.5 - 0.06);
    expect(probe.duration).toBeLessThan(15.5 + 0.06);
    // the API was asked by the hash prefix only
    expect(sponsor.requests.some((r) => r.includes(AUDIO_ID))).toBe(false);
  }, 60_000);

  it("an MP4 sent as it is becomes a re-encode without the intro and the sponsor read, picture and sound alike", async () => {
    const env = await startEngine();
    const { file, header } = await download(env, VIDEO_ID, "mp4-360", { sponsorblock: { categories: ["intro", "sponsor"], action: "cut" } });
    expect(header).toBe("applied");
    const probe = await ffprobeFile(file);
    expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(["aac", "h264"]);
    // the picture: 15 s of frames at 25 fps, to the frame
    const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file]);
    expect(Math.abs(Number(stdout.trim()) - 15 * 25)).toBeLessThanOrEqual(1);
    // the sound: 15 s of samples, plus the AAC encoder's priming and its last frame's padding (1024 samples each, 23 ms)
    const seconds = await decodedAudioSeconds(file);
    expect(seconds).toBeGreaterThan(15 - 0.01);
    expect(seconds).toBeLessThan(15 + (2 * 1024) / 44_100 + 0.01);
  }, 90_000);

  it("a clip is cut on its own timeline: 4 s to 14 s less the spans inside it", async () => {
    const env = await startEngine();
    const { file } = await download(env, AUDIO_ID, "mp3-128", { start: 4, end: 14, sponsorblock: { categories: ["sponsor", "selfpromo"], action: "cut" } });
    // 10 s − 3 (5–8) − 1.5 (12–13.5)
    const probe = await ffprobeFile(file);
    expect(probe.duration).toBeGreaterThan(5.5 - 0.06);
    expect(probe.duration).toBeLessThan(5.5 + 0.06);
  }, 60_000);

  it("a video without segments goes out whole and says none", async () => {
    const env = await startEngine();
    const { file, header } = await download(env, BARE_ID, "mp3-128", { sponsorblock: { categories: ["sponsor"], action: "cut" } });
    expect(header).toBe("none");
    expect((await ffprobeFile(file)).duration).toBeGreaterThan(SECONDS - 0.1);
  }, 60_000);
});

describe("SponsorBlock segments as chapters", () => {
  it("an MP4 carries a chapter per segment and the stretches between", async () => {
    const env = await startEngine();
    const { file, header } = await download(env, VIDEO_ID, "mp4-360", { sponsorblock: { categories: ["intro", "sponsor", "selfpromo"], action: "chapters" } });
    expect(header).toBe("applied");
    const chapters = await chaptersOf(file);
    expect(chapters.map((c) => c.title)).toEqual(["Intro", "Video", "Sponsor", "Video", "Self-promotion", "Video"]);
    const starts = chapters.map((c) => c.start);
    [0, 2, 5, 8, 12, 13.5].forEach((s, i) => expect(starts[i]).toBeCloseTo(s, 2));
    // the file itself is whole
    expect((await ffprobeFile(file)).duration).toBeGreaterThan(SECONDS - 0.1);
  }, 60_000);

  it("an MP3 carries them in its ID3 tag", async () => {
    const env = await startEngine();
    const { file } = await download(env, AUDIO_ID, "mp3-128", { sponsorblock: { categories: ["sponsor"], action: "chapters" } });
    const chapters = await chaptersOf(file);
    expect(chapters.map((c) => [c.title, c.start, c.end])).toEqual([
      ["Video", 0, 5],
      ["Sponsor", 5, 8],
      ["Video", 8, SECONDS],
    ]);
  }, 60_000);
});

describe("an API that cannot answer", () => {
  it("down: the file completes uncut and says unavailable", async () => {
    const env = await startEngine();
    sponsor.failWith = 500;
    try {
      const { file, header } = await download(env, AUDIO_ID, "mp3-128", { sponsorblock: { categories: ["sponsor"], action: "cut" } });
      expect(header).toBe("unavailable");
      expect((await ffprobeFile(file)).duration).toBeGreaterThan(SECONDS - 0.1);
    } finally {
      sponsor.failWith = null;
    }
  }, 60_000);

  it("slow: the download waits at most the client's 3 s, then completes uncut and says unavailable", async () => {
    const env = await startEngine();
    sponsor.delayMs = 10_000;
    try {
      const { file, header, ms } = await download(env, VIDEO_ID, "mp4-360", { sponsorblock: { categories: ["sponsor"], action: "cut" } });
      expect(header).toBe("unavailable");
      expect(ms).toBeLessThan(8000);
      expect((await ffprobeFile(file)).duration).toBeGreaterThan(SECONDS - 0.1);
    } finally {
      sponsor.delayMs = 0;
    }
  }, 60_000);
});

describe("refused before anything streams", () => {
  const refusal = async (url: string, format: string, options: Record<string, unknown>) => {
    const env = started[0] ?? (await startEngine());
    try {
      await env.engine.createDownload({ url, format, caller: { kind: "anonymous" }, ip: "198.51.100.250", options: parseMediaOptions(options) });
    } catch (err) {
      return isEngineError(err) ? { code: err.code, status: err.status } : err;
    }
    return "created";
  };
  const option = { sponsorblock: { categories: ["sponsor"], action: "cut" } };

  it("a link that is not YouTube's is a 422", async () => {
    expect(await refusal("https://media.example.test/song.m4a", "mp3-128", option)).toEqual({ code: "sponsorblock.unavailable", status: 422 });
  });

  it("a thumbnail or a transcript is a 422; a bare file with SponsorBlock chapters too", async () => {
    const url = `https://www.youtube.com/watch?v=${VIDEO_ID}`;
    expect(await refusal(url, "thumbnail-hd", option)).toEqual({ code: "sponsorblock.unavailable", status: 422 });
    expect(await refusal(url, "transcript", option)).toEqual({ code: "sponsorblock.unavailable", status: 422 });
    expect(await refusal(url, "mp3-128", { tags: false, sponsorblock: { categories: ["sponsor"], action: "chapters" } })).toEqual({ code: "sponsorblock.unavailable", status: 422 });
    // the same link and format with a cut is fine
    expect(await refusal(url, "mp3-128", option)).toBe("created");
  });
});
