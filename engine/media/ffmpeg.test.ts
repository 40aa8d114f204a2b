import os from "node:os";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { MediaPlan, UpstreamStream } from "../types.ts";
import { FFMPEG_NICENESS, ffmpegArgsForPlan, INPUT_THREAD_QUEUE_PACKETS, locateMediaTools, runFfmpeg } from "./ffmpeg.ts";
import { parseFfmpegBanner, parseFfprobeJson } from "./probe.ts";

const s = (p: Partial<UpstreamStream> & Pick<UpstreamStream, "id" | "kind">): UpstreamStream => ({
  url: `https://media.example/${p.id}`,
  transport: { type: "direct" },
  container: "mp4",
  ...p,
});

const video = s({ id: "v", kind: "video", vcodec: "h264", height: 720 });
const aac = s({ id: "a", kind: "audio", container: "m4a", acodec: "aac" });
const opus = s({ id: "o", kind: "audio", container: "webm", acodec: "opus" });
const vp9 = s({ id: "w", kind: "video", container: "webm", vcodec: "vp9" });

const argString = (plan: MediaPlan) => ffmpegArgsForPlan(plan).join(" ");

describe("a clip's loopback input", () => {
  it("is opened with demuxers of media containers only: none that fetches the URLs a playlist names", () => {
    const clip = { start: 2, end: 4, seeks: [2, 2], duration: 2, exact: false };
    const plan: MediaPlan = { op: "remux", inputs: [video, aac], container: "mp4", mimeType: "video/mp4", extension: "mp4", bytes: null, clip };
    const args = ffmpegArgsForPlan(plan, ["http://127.0.0.1:4100/token", null]);
    const url = args.indexOf("http://127.0.0.1:4100/token");
    const at = args.indexOf("-format_whitelist");
    // the whitelist belongs to the loopback input: before its -i, after the previous input's
    expect(at).toBeGreaterThan(-1);
    expect(at).toBeLessThan(url);
    expect(args.indexOf("-i")).toBe(url - 1);
    const allowed = args[at + 1]!.split(",");
    expect(allowed).toEqual(expect.arrayContaining(["mov", "mp4", "matroska", "webm"]));
    for (const fetching of ["hls", "dash", "concat", "applehttp", "image2", "rtsp", "sdp", "tee"]) expect(allowed).not.toContain(fetching);
    // the piped input is not given one (ffmpeg's pipe protocol already refuses nested http)
    expect(args.filter((a) => a === "-format_whitelist")).toHaveLength(1);
  });
});

describe("ffmpegArgsForPlan", () => {
  it("remuxes video and audio pipes into a fragmented MP4 on stdout without re-encoding", () => {
    const args = ffmpegArgsForPlan({ op: "remux", inputs: [video, aac], container: "mp4", mimeType: "video/mp4", extension: "mp4", bytes: null });
    const text = args.join(" ");
    // each input's reading thread may queue enough packets that the muxer never waits polling
    expect(text).toContain(`-thread_queue_size ${INPUT_THREAD_QUEUE_PACKETS} -i pipe:3 -thread_queue_size ${INPUT_THREAD_QUEUE_PACKETS} -i pipe:4`);
    expect(INPUT_THREAD_QUEUE_PACKETS).toBeGreaterThanOrEqual(128);
    expect(text).toContain("-map 0:v:0 -map 1:a:0");
    expect(text).toContain("-c:v copy");
    expect(text).toContain("-c:a copy");
    expect(text).toContain("-movflags frag_keyframe+empty_moov+default_base_moof");
    expect(args.slice(-5)).toEqual(["-f", "mp4", "-flush_packets", "0", "pipe:1"]);
    expect(text).not.toMatch(/https?:/);
    expect(args).toContain("-nostdin");
  });

  it("takes both tracks from a single progressive input", () => {
    const prog = s({ id: "p", kind: "progressive", container: "ts", vcodec: "h264", acodec: "aac" });
    const text = argString({ op: "remux", inputs: [prog], container: "mp4", mimeType: "video/mp4", extension: "mp4", bytes: null });
    expect(text).toContain("-map 0:v:0 -map 0:a:0");
    expect(text).toContain("-bsf:a aac_adtstoasc");
    // one input has no reading thread of its own: nothing to size
    expect(text).not.toContain("-thread_queue_size");
  });

  it("re-encodes video only when the plan says so", () => {
    const text = argString({ op: "remux", inputs: [video, aac], container: "mp4", mimeType: "video/mp4", extension: "mp4", bytes: null, transcodeVideo: "h264", height: 720 });
    expect(text).toContain("-c:v libx264");
    expect(text).toContain("-vf scale=w='if(gte(iw,ih),-2,720)':h='if(gte(iw,ih),720,-2)'");
    expect(text).toContain("-c:a copy");
  });

  it("copies VP9 and Opus into WebM", () => {
    const text = argString({ op: "remux", inputs: [vp9, opus], container: "webm", mimeType: "video/webm", extension: "webm", bytes: null });
    expect(text).toContain("-c:v copy");
    expect(text).toContain("-c:a copy");
    expect(text).not.toContain("aac_adtstoasc");
    expect(text).toMatch(/-f webm -flush_packets 0 pipe:1$/);
  });

  it("converts AAC to Opus for WebM when the source has no Opus", () => {
    const text = argString({ op: "remux", inputs: [vp9, aac], container: "webm", mimeType: "video/webm", extension: "webm", bytes: null, transcodeAudio: "opus" });
    expect(text).toContain("-c:a libopus");
  });

  it("writes an M4A from the audio only", () => {
    const prog = s({ id: "p", kind: "progressive", vcodec: "h264", acodec: "aac" });
    const text = argString({ op: "remux", inputs: [prog], container: "m4a", mimeType: "audio/mp4", extension: "m4a", bytes: null });
    expect(text).toContain("-map 0:a:0 -vn");
    expect(text).not.toContain("0:v:0");
    expect(text).toMatch(/-f ipod -flush_packets 0 pipe:1$/);
  });

  it("transcodes MP3 at a constant bitrate and AAC into a fragmented M4A", () => {
    expect(argString({ op: "transcode", input: opus, codec: "mp3", bitrateKbps: 320, mimeType: "audio/mpeg", extension: "mp3", bytes: null })).toMatch(
      /-i pipe:3 -map 0:a:0 -vn -c:a libmp3lame -b:a 320k -write_id3v1 0 -id3v2_version 0 -f mp3 -flush_packets 0 pipe:1$/,
    );
    const aacText = argString({ op: "transcode", input: opus, codec: "aac", bitrateKbps: 256, mimeType: "audio/mp4", extension: "m4a", bytes: null });
    expect(aacText).toContain("-c:a aac -b:a 256k");
    expect(aacText).toContain("frag_keyframe+empty_moov");
  });

  it("refuses plans that do not use ffmpeg", () => {
    expect(() => ffmpegArgsForPlan({ op: "image", url: "https://x/y.jpg", mimeType: "image/jpeg", extension: "jpg", bytes: null })).toThrowError(
      expect.objectContaining({ code: "internal" }),
    );
  });
});

describe("locateMediaTools", () => {
  it("finds ffmpeg and ffprobe on PATH with a version", async () => {
    const tools = await locateMediaTools({});
    expect(tools.source).toBe("path");
    expect(tools.ffmpeg).toBe("ffmpeg");
    expect(tools.ffprobe).toBe("ffprobe");
    expect(tools.probeWith).toBe("ffprobe");
    expect(tools.version).toMatch(/^\d+\.\d+/);
  });

  it("uses explicit paths first", async () => {
    const tools = await locateMediaTools({ ffmpegPath: "/usr/bin/ffmpeg", ffprobePath: "/usr/bin/ffprobe" });
    expect(tools).toMatchObject({ source: "env", ffmpeg: "/usr/bin/ffmpeg", ffprobe: "/usr/bin/ffprobe" });
  });

  it("rejects an explicit path that is not ffmpeg", async () => {
    await expect(locateMediaTools({ ffmpegPath: "/nonexistent/ffmpeg" })).rejects.toMatchObject({ code: "internal" });
  });
});

describe("probe parsers", () => {
  it("reads ffprobe JSON", () => {
    const r = parseFfprobeJson(
      JSON.stringify({
        format: { format_name: "mov,mp4,m4a,3gp,3g2,mj2", duration: "6.037", bit_rate: "480000" },
        streams: [
          { codec_type: "video", codec_name: "h264", width: 640, height: 360, avg_frame_rate: "24/1", bit_rate: "348633" },
          { codec_type: "audio", codec_name: "aac", sample_rate: "48000", channels: 2, bit_rate: "127582", tags: { language: "eng" } },
        ],
      }),
    );
    expect(r).toEqual({
      formatName: "mov,mp4,m4a,3gp,3g2,mj2",
      durationSeconds: 6.037,
      bitrate: 480000,
      streams: [
        { kind: "video", codec: "h264", width: 640, height: 360, fps: 24, bitrate: 348633 },
        { kind: "audio", codec: "aac", sampleRate: 48000, channels: 2, bitrate: 127582, language: "eng" },
      ],
    });
  });

  it("reads the ffmpeg -i banner when there is no ffprobe", () => {
    const banner = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'pipe:0':
  Duration: 00:01:02.50, start: 0.000000, bitrate: 476 kb/s
  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(progressive), 1280x720 [SAR 1:1 DAR 16:9], 348 kb/s, 24 fps, 24 tbr, 12288 tbn (default)
  Stream #0:1[0x2](eng): Audio: aac (LC) (mp4a / 0x6134706D), 48000 Hz, stereo, fltp, 127 kb/s (default)
At least one output file must be specified`;
    expect(parseFfmpegBanner(banner)).toEqual({
      formatName: "mov,mp4,m4a,3gp,3g2,mj2",
      durationSeconds: 62.5,
      bitrate: 476000,
      streams: [
        { kind: "video", codec: "h264", width: 1280, height: 720, fps: 24, bitrate: 348000 },
        { kind: "audio", codec: "aac", sampleRate: 48000, channels: 2, bitrate: 127000, language: "eng" },
      ],
    });
  });

  it("reports an unknown duration as null", () => {
    const r = parseFfmpegBanner("Input #0, mpegts, from 'pipe:0':\n  Duration: N/A, start: 1.4, bitrate: N/A\n  Stream #0:0[0x100]: Audio: aac (LC) ([15][0][0][0] / 0x000F), 48000 Hz, mono, fltp, 130 kb/s");
    expect(r.durationSeconds).toBeNull();
    expect(r.streams).toEqual([{ kind: "audio", codec: "aac", sampleRate: 48000, channels: 1, bitrate: 130000 }]);
  });
});

describe("runFfmpeg priority", () => {
  it("runs ffmpeg below the server's CPU priority, so a saturated machine still answers requests", async () => {
    const tools = await locateMediaTools({});
    const input = new PassThrough(); // never fed: ffmpeg waits for its input
    const run = runFfmpeg(tools, ["-hide_banner", "-loglevel", "error", "-f", "mp3", "-i", "pipe:3", "-f", "null", "-"], [input], { killGraceMs: 200 });
    expect(run.pid).toBeGreaterThan(0);
    expect(os.getPriority(run.pid!)).toBe(Math.max(os.getPriority(), FFMPEG_NICENESS));
    run.shutdown();
    await run.exited;
  });
});
