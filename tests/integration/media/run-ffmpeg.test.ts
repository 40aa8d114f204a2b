/** runFfmpeg and probeStream with the real binaries: failure surfacing, teardown, probing from stdin. */
import { createReadStream } from "node:fs";
import { PassThrough, Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { ffmpegArgsForPlan, locateMediaTools, runFfmpeg, type MediaTools } from "#engine/media/ffmpeg.ts";
import { probeStream, warmProbers } from "#engine/media/probe.ts";
import { createWarmPool, processProbers } from "#engine/media/warm-processes.ts";
import type { UpstreamStream } from "#engine/types.ts";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { MEDIA_CACHE_DIR, childFfmpegCount } from "./helpers.ts";

let media: MockMediaSet;
let tools: MediaTools;
beforeAll(async () => {
  [media, tools] = await Promise.all([ensureMockMedia(MEDIA_CACHE_DIR), locateMediaTools({})]);
});

const audio: UpstreamStream = { id: "a", kind: "audio", url: "x", transport: { type: "direct" }, container: "m4a", acodec: "aac" };
const mp3Args = () => ffmpegArgsForPlan({ op: "transcode", input: audio, codec: "mp3", bitrateKbps: 128, mimeType: "audio/mpeg", extension: "mp3", bytes: null });

async function drain(stream: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}

describe("runFfmpeg", () => {
  it("streams the output and resolves exited with code 0", async () => {
    const run = runFfmpeg(tools, mp3Args(), [createReadStream(media.audioM4a)]);
    const bytes = await drain(run.output);
    expect(bytes).toBeGreaterThan(50_000);
    await expect(run.exited).resolves.toMatchObject({ code: 0, signal: null });
  });

  it("turns a non-zero exit into download.failed with the stderr tail kept", async () => {
    const run = runFfmpeg(tools, mp3Args(), [Readable.from([Buffer.from("this is not media at all".repeat(100))])]);
    await expect(drain(run.output)).rejects.toMatchObject({ code: "download.failed" });
    const exit = await run.exited;
    expect(exit.code).not.toBe(0);
    expect(exit.stderrTail.length).toBeGreaterThan(0);
    expect(exit.stderrTail.length).toBeLessThanOrEqual(8 * 1024);
  });

  it("runs the next transcode of the same kind on an ffmpeg started ahead, with the same output", async () => {
    const stdio = ["ignore", "pipe", "pipe", "pipe"] as const;
    const args = ffmpegArgsForPlan({ op: "transcode", input: audio, codec: "mp3", bitrateKbps: 96, mimeType: "audio/mpeg", extension: "mp3", bytes: null });
    const pool = createWarmPool({ size: 1, refillDelayMs: 20 });
    try {
      const first = runFfmpeg(tools, args, [createReadStream(media.audioM4a)], { warm: pool });
      const firstBytes = await drain(first.output);
      // once it has exited, one is started for the next run of this command line
      await expect.poll(() => pool.idle(tools.ffmpeg, args, stdio), { timeout: 5000 }).toBe(1);
      const [waiting] = pool.idlePids();
      const second = runFfmpeg(tools, args, [createReadStream(media.audioM4a)], { warm: pool });
      expect(second.pid).toBe(waiting);
      expect(second.pid).not.toBe(first.pid);
      expect(await drain(second.output)).toBe(firstBytes);
      await expect(second.exited).resolves.toMatchObject({ code: 0 });
    } finally {
      pool.close();
    }
  });

  it("shutdown is idempotent and kills ffmpeg; the input is destroyed", async () => {
    const endless = new PassThrough();
    const head = createReadStream(media.audioM4a, { end: 30_000 });
    head.pipe(endless, { end: false }); // then the input stalls, like a slow upstream
    const run = runFfmpeg(tools, mp3Args(), [endless], { killGraceMs: 500 });
    run.output.resume();
    await new Promise((r) => setTimeout(r, 300));
    run.shutdown();
    run.shutdown();
    const exit = await run.exited;
    expect(exit.code === 0 && exit.signal === null).toBe(false);
    expect(endless.destroyed).toBe(true);
    expect(await childFfmpegCount()).toBe(0);
  });

  it("destroying the output (client gone) tears ffmpeg down", async () => {
    const endless = new PassThrough();
    createReadStream(media.audioM4a, { end: 30_000 }).pipe(endless, { end: false });
    const run = runFfmpeg(tools, mp3Args(), [endless], { killGraceMs: 500 });
    run.output.destroy();
    const exit = await run.exited;
    expect(exit.code === 0 && exit.signal === null).toBe(false);
    expect(await childFfmpegCount()).toBe(0);
  });

  it("20 runs aborted midway leave no ffmpeg process behind", async () => {
    const runs = Array.from({ length: 20 }, () => {
      const input = new PassThrough();
      createReadStream(media.video[360], { end: 40_000 }).pipe(input, { end: false });
      const run = runFfmpeg(tools, ["-hide_banner", "-nostdin", "-loglevel", "error", "-i", "pipe:3", "-c", "copy", "-f", "mpegts", "pipe:1"], [input], { killGraceMs: 300 });
      run.output.resume();
      return run;
    });
    await new Promise((r) => setTimeout(r, 500));
    runs.forEach((r) => r.shutdown());
    await Promise.all(runs.map((r) => r.exited));
    expect(await childFfmpegCount()).toBe(0);
  });

  it("holds ffmpeg back while nobody reads the output (backpressure, bounded memory)", async () => {
    // raw video is ~345 KB per frame: unbounded buffering would show within a second
    const args = ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=60", "-f", "rawvideo", "-pix_fmt", "yuv420p", "pipe:1"];
    const run = runFfmpeg(tools, args, [], { killGraceMs: 500 });
    await new Promise((r) => setTimeout(r, 1000));
    expect(run.output.readableLength).toBeLessThan(2 * 1024 * 1024);
    let settled = false;
    void run.exited.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false); // still running, blocked on its full pipe
    // reading resumes the flow
    let read = 0;
    run.output.on("data", (c: Buffer) => (read += c.length));
    await new Promise((r) => setTimeout(r, 500));
    expect(read).toBeGreaterThan(4 * 1024 * 1024);
    run.shutdown();
    await run.exited;
  });

  it("reports an input error as the failure, not as a finished file", async () => {
    const input = new PassThrough();
    createReadStream(media.audioM4a, { end: 30_000 }).on("data", (c) => input.write(c)).on("end", () => input.destroy(new Error("socket hang up")));
    const run = runFfmpeg(tools, mp3Args(), [input]);
    await expect(drain(run.output)).rejects.toMatchObject({ code: "download.failed" });
  });
});

describe("probeStream", () => {
  it("reads codecs and size from the first bytes on stdin", async () => {
    const probe = await probeStream(tools, createReadStream(media.video[720], { end: 256 * 1024 }));
    expect(probe.formatName).toContain("mp4");
    expect(probe.streams[0]).toMatchObject({ kind: "video", codec: "h264", width: 1280, height: 720 });
  });

  it("reads a whole file's duration", async () => {
    const probe = await probeStream(tools, createReadStream(media.progressive));
    expect(probe.durationSeconds).toBeCloseTo(media.durationSeconds, 0);
    expect(probe.streams.map((s) => s.codec).sort()).toEqual(["aac", "h264"]);
  });

  it("falls back to parsing ffmpeg when there is no ffprobe", async () => {
    const probe = await probeStream({ ...tools, ffprobe: "", probeWith: "ffmpeg" }, createReadStream(media.audioWebm));
    expect(probe.streams).toEqual([expect.objectContaining({ kind: "audio", codec: "opus", sampleRate: 48000 })]);
    expect(probe.durationSeconds).toBeCloseTo(media.durationSeconds, 0);
  });

  it("probes with a prober started ahead, with the same result", async () => {
    for (let i = 0; i < 300 && warmProbers(tools) < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(warmProbers(tools)).toBe(2);
    const ready = processProbers.idlePids();
    const probe = await probeStream(tools, createReadStream(media.video[720], { end: 256 * 1024 }));
    expect(probe.streams[0]).toMatchObject({ kind: "video", codec: "h264", width: 1280, height: 720 });
    // it took one of the two ready (a replacement may already have started on a slow machine:
    // the pool refills 250 ms after a take, so the count alone cannot tell)
    const stillIdle = new Set(processProbers.idlePids());
    expect(ready.filter((pid) => !stillIdle.has(pid))).toHaveLength(1);
  });

  it("rejects bytes that are not media", async () => {
    await expect(probeStream(tools, Readable.from([Buffer.from("<html>not a video</html>")]))).rejects.toMatchObject({ code: "video.no_formats" });
  });
});
