/**
 * Loudness normalisation (issue 33 §5, §8; docs/decisions/066), end to end: the engine on a local
 * CDN that counts the bytes it sends, a quiet tone and a loud noise generated with ffmpeg, each
 * downloaded as MP3, AAC and M4A with `normalize`, and the file measured by ffmpeg's own EBU R128
 * meter (`ebur128`, independent of the `loudnorm` filter that made it).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "#engine/index.ts";
import { TARGET_LUFS, TARGET_TRUE_PEAK, TWO_PASS_MAX_SECONDS } from "#engine/media/loudness/loudness.ts";
import { parseMediaOptions } from "#engine/media/options/media-options.ts";
import type { CountingOrigin } from "./counting-origin.ts";
import { countedDownload, fakeYoutube, startMediaEngine } from "./fake-youtube.ts";
import { ffprobeFile } from "./helpers.ts";

const execFileAsync = promisify(execFile);
const HOST = "https://loud.example.test";
const SECONDS = 20;

/**
 * The sources: a quiet, slowly swelling tone (about −33 LUFS; one linear gain brings it up), a
 * quiet swelling pink noise (about −38 LUFS, but peaks so far above its loudness that the gain
 * to −14 would push them over −1 dBTP: the limiter must work) and a loud noise over a tone that
 * clips (about −8 LUFS, above 0 dBTP).
 */
const SOURCES: Record<string, string[]> = {
  peaky: ["-f", "lavfi", "-i", `anoisesrc=c=pink:a=0.1:d=${SECONDS}:r=44100:seed=7,volume='0.5+0.5*sin(2*PI*t/4)':eval=frame`],
  quiet: ["-f", "lavfi", "-i", `sine=f=440:d=${SECONDS}:r=44100,volume=0.03,volume='0.6+0.4*sin(2*PI*t/4)':eval=frame`],
  loud: [
    ...["-f", "lavfi", "-i", `sine=f=220:d=${SECONDS}:r=44100,volume=0.9,volume='0.6+0.4*sin(2*PI*t/3)':eval=frame`],
    ...["-f", "lavfi", "-i", `anoisesrc=c=white:a=0.5:d=${SECONDS}:r=44100:seed=7`, "-filter_complex", "[0][1]amix=inputs=2:normalize=0"],
  ],
};

/**
 * Video ids of the fake platform: which file, and the length its resolve states. "longQuietxx" is
 * the quiet file said to be longer than the two-pass bound, so it goes in one pass.
 */
const VIDEOS: Record<string, { file: string; seconds: number }> = {
  quietTone01: { file: "quiet.m4a", seconds: SECONDS },
  loudNoise01: { file: "loud.m4a", seconds: SECONDS },
  quietPeaks1: { file: "peaky.m4a", seconds: SECONDS },
  longQuietxx: { file: "quiet.m4a", seconds: TWO_PASS_MAX_SECONDS + 60 },
};

let dir: string;
let origin: CountingOrigin;
let engine: Engine;
let server: { origin: string };
let close: (() => Promise<void>) | undefined;

/** The fake platform's answer: the file as one M4A audio stream, its length as the resolve states it. */
const platform = fakeYoutube(
  Object.fromEntries(
    Object.entries(VIDEOS).map(([id, video]) => [
      id,
      {
        title: "Loudness",
        seconds: video.seconds,
        streams: async () => [
          { id: "140", kind: "audio", url: `${HOST}/${video.file}`, transport: { type: "direct" }, container: "m4a", acodec: "aac", bitrate: 128_000, contentLength: (await stat(path.join(dir, video.file))).size },
        ],
      },
    ]),
  ),
);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-loudness-"));
  for (const [name, input] of Object.entries(SOURCES)) {
    await execFileAsync("ffmpeg", ["-v", "error", "-y", ...input, "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", path.join(dir, `${name}.m4a`)]);
  }
  ({ origin, engine, server, close } = await startMediaEngine(dir, "loud.example.test", [platform]));
}, 120_000);
afterAll(async () => {
  await close?.();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Integrated loudness (LUFS), loudness range and true peak (dBTP) by ffmpeg's EBU R128 meter. */
async function measure(file: string): Promise<{ integrated: number; truePeak: number }> {
  const { stderr } = await execFileAsync("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", "ebur128=peak=true", "-f", "null", "-"]);
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  const integrated = Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]);
  const truePeak = Number(/True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1]);
  return { integrated, truePeak };
}

function download(id: string, format: string, options: Record<string, unknown>): Promise<{ file: string; fetched: number }> {
  return countedDownload({ engine, origin, server }, `https://www.youtube.com/watch?v=${id}`, format, options, dir);
}

/**
 * True peak may come out a little above −1 dBTP: the MP3/AAC encoder after the limiter rebuilds
 * the waveform with overshoots of its own. The limiter is set half a dB under the target for them
 * (LIMITER_TRUE_PEAK), and pink noise pushed up 24 dB still came out at −0.6 dBTP as AAC 256:
 * half a dB over the target is allowed, no more.
 */
const PEAK_MARGIN_DB = 0.5;

/**
 * How far from −14 LUFS each source may land. The pink noise's peaks stand 17 dB over its
 * loudness, so at −14 LUFS they would reach +3 dBTP: the limiter must hold them down and the
 * peak ceiling may win over the last fraction of a LU (it measured −14.9 LUFS as AAC), as the
 * streaming services' own normalisation does. The others reach the target by gain alone.
 */
const LOUDNESS_TOLERANCE_LU: Record<string, number> = { quietTone01: 1, loudNoise01: 1, quietPeaks1: 1.5 };

describe("normalize: two passes for a short source", () => {
  for (const id of ["quietTone01", "quietPeaks1", "loudNoise01"]) {
    for (const format of ["mp3-320", "aac-256", "m4a"]) {
      it(`${id} as ${format} lands at −14 LUFS (±${LOUDNESS_TOLERANCE_LU[id]} LU), true peak at most −1 dBTP`, async () => {
        const source = path.join(dir, VIDEOS[id]!.file);
        const before = await measure(source);
        expect(Math.abs(before.integrated - TARGET_LUFS)).toBeGreaterThan(5);
        const got = await download(id, format, { normalize: true, tags: false });
        const after = await measure(got.file);
        expect(Math.abs(after.integrated - TARGET_LUFS)).toBeLessThanOrEqual(LOUDNESS_TOLERANCE_LU[id]!);
        expect(after.truePeak).toBeLessThanOrEqual(TARGET_TRUE_PEAK + PEAK_MARGIN_DB);
        // measured first, then normalised: the audio was fetched twice
        expect(got.fetched).toBe(2 * (await stat(source)).size);
        const probe = await ffprobeFile(got.file);
        expect(probe.streams.map((s) => s.codec_name)).toEqual([format.startsWith("mp3") ? "mp3" : "aac"]);
        expect(Math.abs(probe.duration - SECONDS)).toBeLessThan(0.2);
      }, 60_000);
    }
  }

  it("without normalize the same M4A is the source's own loudness", async () => {
    const got = await download("quietTone01", "m4a", { tags: false });
    const after = await measure(got.file);
    expect(Math.abs(after.integrated - (await measure(path.join(dir, "quiet.m4a"))).integrated)).toBeLessThan(0.2);
  }, 60_000);
});

describe("normalize: one pass for a source longer than the bound", () => {
  it("fetches the audio once and still brings it near the target", async () => {
    const source = path.join(dir, "quiet.m4a");
    const got = await download("longQuietxx", "mp3-128", { normalize: true, tags: false });
    expect(got.fetched).toBe((await stat(source)).size);
    const after = await measure(got.file);
    // one pass adjusts as it goes (its first seconds start from a guess), so the whole file is looser than two passes
    expect(Math.abs(after.integrated - TARGET_LUFS)).toBeLessThanOrEqual(2);
    expect(after.truePeak).toBeLessThanOrEqual(TARGET_TRUE_PEAK + PEAK_MARGIN_DB);
  }, 60_000);
});

describe("normalize on a format that cannot take it", () => {
  it("is a 422 normalize.unavailable for video and picture formats, never a file without it", async () => {
    for (const format of ["mp4-360", "webm", "thumbnail-hd"]) {
      const err = await engine
        .createDownload({ url: "https://www.youtube.com/watch?v=quietTone01", format, caller: { kind: "anonymous" }, ip: "203.0.113.9", options: parseMediaOptions({ normalize: true }) })
        .then(() => null, (e: unknown) => e as { code: string; status: number });
      expect(err).toMatchObject({ code: expect.stringMatching(/^(normalize\.unavailable|format\.unavailable)$/), status: 422 });
    }
  }, 30_000);
});
