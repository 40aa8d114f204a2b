/**
 * What a media stream contains, read from its bytes on stdin (never from a URL). Uses ffprobe's
 * JSON when ffprobe exists, else parses the banner of `ffmpeg -i` (the bundled ffmpeg has no
 * ffprobe).
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { EngineError } from "../errors.ts";
import type { MediaTools } from "./ffmpeg.ts";
import { processSpawnGate } from "./spawn-gate.ts";
import { processProbers } from "./warm-processes.ts";

export interface ProbedStream {
  kind: "video" | "audio" | "subtitle" | "data";
  /** ffprobe codec name: h264, vp9, av1, hevc, aac, opus, mp3, … */
  codec: string;
  width?: number;
  height?: number;
  fps?: number;
  /** bits per second */
  bitrate?: number;
  sampleRate?: number;
  channels?: number;
  language?: string;
}

export interface ProbeResult {
  /** container names as ffmpeg reports them, e.g. "mov,mp4,m4a,3gp,3g2,mj2", "mpegts", "matroska,webm" */
  formatName: string;
  durationSeconds: number | null;
  /** overall bits per second */
  bitrate: number | null;
  streams: ProbedStream[];
}

const PROBE_TIMEOUT_MS = 15_000;
const MAX_OUTPUT = 1024 * 1024;

function num(v: unknown): number | undefined {
  const n = typeof v === "string" ? Number(v) : typeof v === "number" ? v : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function rate(v: unknown): number | undefined {
  if (typeof v !== "string") return undefined;
  const [a, b] = v.split("/").map(Number);
  if (!a || !b || !Number.isFinite(a / b)) return undefined;
  return Math.round((a / b) * 100) / 100;
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string; bit_rate?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    bit_rate?: string;
    sample_rate?: string;
    channels?: number;
    tags?: { language?: string };
  }[];
}

export function parseFfprobeJson(text: string): ProbeResult {
  const json = JSON.parse(text) as FfprobeJson;
  const streams: ProbedStream[] = (json.streams ?? []).map((s) => {
    const kind = s.codec_type === "video" || s.codec_type === "audio" || s.codec_type === "subtitle" ? s.codec_type : "data";
    const out: ProbedStream = { kind, codec: s.codec_name ?? "unknown" };
    if (kind === "video") {
      out.width = num(s.width);
      out.height = num(s.height);
      out.fps = rate(s.avg_frame_rate) ?? rate(s.r_frame_rate);
    }
    if (kind === "audio") {
      out.sampleRate = num(s.sample_rate);
      out.channels = num(s.channels);
    }
    out.bitrate = num(s.bit_rate);
    if (s.tags?.language && s.tags.language !== "und") out.language = s.tags.language;
    return out;
  });
  return {
    formatName: json.format?.format_name ?? "unknown",
    durationSeconds: num(json.format?.duration) ?? null,
    bitrate: num(json.format?.bit_rate) ?? null,
    streams,
  };
}

/** Parses the input banner that `ffmpeg -i` prints to stderr. */
export function parseFfmpegBanner(text: string): ProbeResult {
  const input = /Input #0, ([^,\n]+(?:,[^,\n ]+)*), from/.exec(text);
  const dur = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(text);
  const br = /Duration:[^\n]*bitrate: (\d+) kb\/s/.exec(text);
  const streams: ProbedStream[] = [];
  const re = /Stream #0:\d+(?:\[[^\]]*\])?(?:\((\w+)\))?: (Video|Audio|Subtitle|Data): (\w+)([^\n]*)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const kind = m[2]!.toLowerCase() as ProbedStream["kind"];
    const rest = m[4]!;
    const s: ProbedStream = { kind, codec: m[3]! };
    if (m[1] && m[1] !== "und") s.language = m[1];
    const kbps = /(\d+) kb\/s/.exec(rest);
    if (kbps) s.bitrate = Number(kbps[1]) * 1000;
    if (kind === "video") {
      const size = /, (\d{2,5})x(\d{2,5})/.exec(rest);
      if (size) {
        s.width = Number(size[1]);
        s.height = Number(size[2]);
      }
      const fps = /([\d.]+) fps/.exec(rest);
      if (fps) s.fps = Number(fps[1]);
    }
    if (kind === "audio") {
      const hz = /(\d+) Hz/.exec(rest);
      if (hz) s.sampleRate = Number(hz[1]);
      if (/\bstereo\b/.test(rest)) s.channels = 2;
      else if (/\bmono\b/.test(rest)) s.channels = 1;
      else if (/\b5\.1\b/.test(rest)) s.channels = 6;
    }
    streams.push(s);
  }
  const duration = dur ? Number(dur[1]) * 3600 + Number(dur[2]) * 60 + Number(dur[3]) : null;
  return {
    formatName: input ? input[1]! : "unknown",
    durationSeconds: duration && duration > 0 ? duration : null,
    bitrate: br ? Number(br[1]) * 1000 : null,
    streams,
  };
}

/**
 * Decoders opened to fill in the stream parameters decode key frames only: a probe reports
 * containers and codecs, not pictures, so decoding every frame only made the probe slower (the
 * same output for every media file of the fixtures and the benchmark, and for segments cut
 * before their first key frame; figure: docs/performance.md).
 */
const KEY_FRAMES_ONLY = ["-skip_frame", "nokey"];

/** Every probe runs this command line and reads from stdin, which is what lets probers start ahead. */
function proberCommand(tools: MediaTools): { useFfprobe: boolean; binary: string; args: string[] } {
  const useFfprobe = tools.probeWith === "ffprobe" && tools.ffprobe !== "";
  return {
    useFfprobe,
    binary: useFfprobe ? tools.ffprobe : tools.ffmpeg,
    args: useFfprobe
      ? ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", ...KEY_FRAMES_ONLY, "-i", "pipe:0"]
      : ["-hide_banner", "-nostats", ...KEY_FRAMES_ONLY, "-i", "pipe:0"],
  };
}

/** Starts probers for the next probes now (they otherwise start after a probe); returns how many are ready. */
export function warmProbers(tools: MediaTools): number {
  const { binary, args } = proberCommand(tools);
  processProbers.fill(binary, args);
  return processProbers.idle(binary, args);
}

/**
 * Probes the bytes arriving on `input` (often just the first part of a stream: duration may then
 * be unknown). Rejects with `EngineError("video.no_formats")` when the bytes are not media.
 */
export async function probeStream(tools: MediaTools, input: Readable, opts: { timeoutMs?: number } = {}): Promise<ProbeResult> {
  const { useFfprobe, binary, args } = proberCommand(tools);
  // Listened to from the first moment (issue 27): the input may fail while the probe waits for
  // its spawn turn (a segment that 404s at once), and an 'error' nobody hears ends the process.
  let inputError: Error | null = null;
  let inputGone = false;
  let stdin: Writable | null = null;
  input.on("error", (err) => {
    inputError = err;
  });
  input.once("close", () => {
    inputGone = true;
    // a stream destroyed before its end never emits 'end': the prober would wait for the timeout
    stdin?.end();
  });
  // a prober started ahead (warm-processes.ts) has already paid its start-up
  const warm = processProbers.take(binary, args);
  let child: ChildProcess;
  if (warm) child = warm;
  else {
    // spawning blocks the event loop until the prober has exec'd: one spawn per loop turn
    await processSpawnGate.turn();
    // the input failed or went away meanwhile: nothing to probe, no process to start
    if (inputError) throw inputError;
    if (inputGone) throw new EngineError("video.no_formats", { detail: "the input closed before the probe started" });
    child = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"] });
  }
  // the next probe gets a started prober too, started a while after this one is done (warm-processes.ts)
  child.once("close", () => processProbers.fillLater(binary, args));
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => {
    if (stdout.length < MAX_OUTPUT) stdout += c;
  });
  child.stderr!.setEncoding("utf8").on("data", (c: string) => {
    if (stderr.length < MAX_OUTPUT) stderr += c;
  });
  stdin = child.stdin as Writable;
  // the prober stops reading once it knows enough: a closed stdin is expected, not an error
  stdin.on("error", () => {});
  input.pipe(stdin);
  if (inputGone) stdin.end();

  const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? PROBE_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", (err) => reject(new EngineError("internal", { cause: err, detail: `spawn ${binary}: ${err.message}` })));
    child.on("close", (c) => resolve(c));
  }).finally(() => {
    clearTimeout(timer);
    input.unpipe(stdin);
    if (!input.destroyed) input.destroy();
  });

  let result: ProbeResult | null = null;
  if (useFfprobe) {
    if (code === 0 && stdout.trim()) result = parseFfprobeJson(stdout);
  } else {
    // `ffmpeg -i` without an output always exits 1; the banner is what counts
    result = parseFfmpegBanner(stderr);
  }
  if (!result || result.streams.length === 0) {
    if (inputError) throw inputError;
    throw new EngineError("video.no_formats", { detail: `probe found no media streams: ${stderr.trim().slice(-300)}` });
  }
  return result;
}
