/**
 * 403 recovery without loops (issue 32 §4, §7) on the mock platform: when googlevideo refuses a
 * download mid-way, the engine asks for smaller ranges, then re-resolves on the same client,
 * then asks the next client, each once, and continues at the byte offset it reached; the file
 * comes out byte for byte. Where nothing works it fails with the catalogue's words, and neither
 * one download (player and media requests, within downloadRequestBudget) nor many at once ask the
 * host more than their budgets allow.
 *
 * The sample media are small (the M4A is about 100 kB), so the token gate's "about 1 MB per
 * request" is scaled down to 16 KiB on both sides: the mock's `mediaTokenFreeBytes` and the
 * engine's `refusals.pieceBytes`.
 */
import { execFile } from "node:child_process";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ERRORS } from "#engine/errors.ts";
import { createEngine, type Engine, type EngineDeps } from "#engine/index.ts";
import { createHostRefusals } from "#engine/outbound/host-refusals.ts";
import { DEFAULT_MAX_REFUSALS } from "#engine/stream/refusal-ladder.ts";
import { downloadRequestBudget, mockPlatformSuite, sourceContext } from "./helpers.ts";

const execFileAsync = promisify(execFile);
const VIDEO = "vidfetch720";
const URL_OF = (id: string) => `https://www.youtube.com/watch?v=${id}`;
const PIECE = 16 * 1024;
/** the M4A format is itag 140 sent as it is: the bytes can be compared with the mock's file */
const AUDIO_ITAG = "140";

describe("403 recovery on the mock platform", () => {
  const suite = mockPlatformSuite();
  /** each engine's first range size */
  const chunkOf = new WeakMap<Engine, number>();

  /** A fresh engine (its own resolve cache) with `chunkBytes` first ranges and the scaled-down piece size. */
  async function engineWith(opts: { chunkBytes: number; refusals?: EngineDeps["refusals"] }): Promise<Engine> {
    const { config } = sourceContext({ hostMap: suite.platform.hostMap, clients: ["VISIONOS", "ANDROID"] });
    const engine = await createEngine(
      { ...config, ytdlpPath: "off", publicUrl: suite.origin, limits: { ...config.limits, chunkBytes: opts.chunkBytes, resolveCacheSeconds: 60 } },
      { refusals: { pieceBytes: PIECE, ...opts.refusals } },
    );
    chunkOf.set(engine, opts.chunkBytes);
    return suite.use(engine);
  }

  /** the inputs of the formats these tests download: the M4A alone, or the 720p video and the M4A */
  const inputsOf = async (format: string) => [...(format === "mp4-720" ? [suite.platform.media.video[720]] : []), suite.platform.media.audioM4a];

  /** Downloads `format` of VIDEO; what the platform saw meanwhile: player clients, media requests of `itag`, refusals. */
  async function download(engine: Engine, format: string, itag = AUDIO_ITAG, alone = true) {
    const from = suite.platform.youtubeRequests().length;
    // the bytes are compared with the source's: the file as it is, without tags
    const created = await engine.createDownload({ url: URL_OF(VIDEO), format, caller: { kind: "anonymous" }, ip: "127.0.0.1", options: { tags: false } });
    const res = await fetch(created.downloadUrl);
    const body = Buffer.from(await res.arrayBuffer());
    const seen = suite.platform.youtubeRequests().slice(from).filter((r) => r.videoId === VIDEO);
    // whatever happened, within decision 056's budgets for one download of a two-client ladder (the
    // platform cannot tell apart downloads of the same video at once: those have the host's budget)
    const budget = downloadRequestBudget({
      ladder: 2,
      inputBytes: await Promise.all((await inputsOf(format)).map(async (f) => (await stat(f)).size)),
      smallestRequestBytes: Math.min(chunkOf.get(engine)!, PIECE),
    });
    if (alone) {
      expect(seen.filter((r) => r.kind === "player").length).toBeLessThanOrEqual(budget.players);
      expect(seen.filter((r) => r.kind === "media").length).toBeLessThanOrEqual(budget.media);
    }
    return {
      status: res.status,
      body,
      players: seen.filter((r) => r.kind === "player").map((r) => r.client),
      media: seen.filter((r) => r.kind === "media" && r.itag === itag),
      refusals: suite.platform.mediaRefusals(),
    };
  }

  const ceilDiv = (a: number, b: number) => Math.ceil(a / b);

  it("a token-gated client's URL refuses long ranges: the download continues in small ranges, byte for byte, without a re-resolve", async () => {
    suite.platform.setYouTubeModes({ mediaNeedsToken: ["VISIONOS"], mediaTokenFreeBytes: PIECE });
    const engine = await engineWith({ chunkBytes: 64 * 1024 });
    const expected = await readFile(suite.platform.media.audioM4a);
    const got = await download(engine, "m4a");
    expect(got.status).toBe(200);
    expect(got.body.equals(expected)).toBe(true);
    expect(got.players).toEqual(["VISIONOS"]);
    expect(got.refusals.map((r) => r.why)).toEqual(["token"]);
    // the refused request, then the file in pieces: nothing asked twice
    expect(got.media.length).toBe(1 + ceilDiv(expected.length, PIECE));
  });

  it("video and audio behind the same token gate share one shrink: the merged file is whole", async () => {
    suite.platform.setYouTubeModes({ mediaNeedsToken: ["VISIONOS"], mediaTokenFreeBytes: PIECE });
    const engine = await engineWith({ chunkBytes: 256 * 1024 });
    const got = await download(engine, "mp4-720", "136");
    expect(got.status).toBe(200);
    const file = path.join(os.tmpdir(), `vidfetch-refusal-${process.pid}.mp4`);
    await writeFile(file, got.body);
    const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
    const probe = JSON.parse(stdout) as { format: { duration: string }; streams: Array<{ codec_type: string; height?: number }> };
    expect(probe.streams.find((s) => s.codec_type === "video")?.height).toBe(720);
    expect(probe.streams.some((s) => s.codec_type === "audio")).toBe(true);
    expect(Math.abs(Number(probe.format.duration) - suite.platform.media.durationSeconds)).toBeLessThan(1);
    await rm(file, { force: true });
    expect(got.players).toEqual(["VISIONOS"]);
    // one refusal per input at most (each was asking for a long range when the gate answered)
    expect(got.refusals.length).toBeLessThanOrEqual(2);
    expect(got.refusals.every((r) => r.why === "token")).toBe(true);
    expect(got.media.length).toBe(1 + ceilDiv((await readFile(suite.platform.media.video[720])).length, PIECE));
  });

  it("a URL that expires mid-download: one fresh resolve on the same client, continuing at the offset reached, byte for byte", async () => {
    suite.platform.setYouTubeModes({ mediaExpires: { clients: ["VISIONOS"], atByte: 40_000 } });
    const engine = await engineWith({ chunkBytes: PIECE });
    const expected = await readFile(suite.platform.media.audioM4a);
    const got = await download(engine, "m4a");
    expect(got.status).toBe(200);
    expect(got.body.equals(expected)).toBe(true);
    // the second player request is the re-resolve: the cached answer (60 s) was not used
    expect(got.players).toEqual(["VISIONOS", "VISIONOS"]);
    // the range being read and the one fetched ahead of it were both in flight with the old URL
    expect(got.refusals.length).toBeLessThanOrEqual(2);
    expect(got.refusals.every((r) => r.why === "expired")).toBe(true);
    // never from byte 0 again: after the refusal, every range starts past the expiry point
    const refusedAt = Number(/^bytes=(\d+)-/.exec(got.refusals[0]!.range)?.[1]);
    expect(refusedAt).toBeGreaterThanOrEqual(40_000);
  });

  it("a client whose URLs stay refused after a re-resolve: the next client finishes the download, byte for byte", async () => {
    suite.platform.setYouTubeModes({ mediaRefused: ["VISIONOS"] });
    const engine = await engineWith({ chunkBytes: PIECE });
    const expected = await readFile(suite.platform.media.audioM4a);
    const got = await download(engine, "m4a");
    expect(got.status).toBe(200);
    expect(got.body.equals(expected)).toBe(true);
    expect(got.players).toEqual(["VISIONOS", "VISIONOS", "ANDROID"]);
    expect(got.refusals.map((r) => `${r.client}:${r.why}`)).toEqual(["VISIONOS:refused", "VISIONOS:refused"]);
    expect([...new Set(got.media.map((r) => r.client))]).toEqual(["VISIONOS", "ANDROID"]);
  });

  it("when no rung works the download fails with the catalogue's words, within its budget", async () => {
    suite.platform.setYouTubeModes({ mediaRefused: ["VISIONOS", "ANDROID"] });
    const engine = await engineWith({ chunkBytes: 64 * 1024 });
    const got = await download(engine, "m4a");
    expect(got.status).toBe(ERRORS["upstream.refused"].status);
    expect(JSON.parse(got.body.toString("utf8"))).toMatchObject({ error: { code: "upstream.refused", message: ERRORS["upstream.refused"].message } });
    // shrink, re-resolve, next client: each once, then the end
    expect(got.players).toEqual(["VISIONOS", "VISIONOS", "ANDROID"]);
    expect(got.refusals.length).toBeLessThanOrEqual(4);
    expect(got.refusals.length).toBeLessThanOrEqual(DEFAULT_MAX_REFUSALS);
  });

  it("the per-host budget caps what many failing downloads ask of one host", async () => {
    const downloads = 4;
    const hostBudget = 2;
    /** refusals the host saw while `downloads` downloads failed at once with a host budget of `capacity` */
    const storm = async (capacity: number) => {
      suite.platform.setYouTubeModes({ mediaRefused: ["VISIONOS", "ANDROID"] });
      const engine = await engineWith({ chunkBytes: PIECE, refusals: { hosts: createHostRefusals({ capacity, refillPerSecond: 0 }) } });
      const results = await Promise.all(Array.from({ length: downloads }, () => download(engine, "m4a", AUDIO_ITAG, false)));
      for (const r of results) expect(JSON.parse(r.body.toString("utf8"))).toMatchObject({ error: { code: "upstream.refused" } });
      return suite.platform.mediaRefusals().length;
    };
    // with room to spare, each download climbs its own rungs
    expect(await storm(100)).toBeGreaterThan(downloads + hostBudget);
    // each download's first request, and only as many more as the host's budget allows
    expect(await storm(hostBudget)).toBeLessThanOrEqual(downloads + hostBudget);
  });
});
