/**
 * The clip rows (issue 33 §1, docs/decisions/061): 30 s cut out of a 3-hour 1080p source on a
 * local origin that counts every byte it sends, the engine side by side with Debian's
 * `yt-dlp --download-sections`. Two shapes: YouTube's (DASH, video and audio as two fragmented
 * MP4 files with one sidx each) and a progressive MP4 whose sample table (moov) comes first.
 * Two cuts of each: the keyframe cut, and the exact cut (`exact`: only the first and last GOP
 * re-encoded) against yt-dlp's own, `--force-keyframes-at-cuts`, which re-encodes the clip.
 * The 3 hours are a 60 s 1080p encode looped by stream copy (seconds, not an hour of encoding),
 * cached in the temp folder beside the other benchmark media.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Engine } from "../engine/index.ts";
import { startCountingOrigin, type CountingOrigin } from "../tests/integration/media/counting-origin.ts";
import { segmentBaseMpd } from "../tests/mocks/media.ts";
import type { Row } from "./run.ts";

const exec = promisify(execFile);

const HOURS = 3;
const LOOPS = HOURS * 60;
/** a keyframe every 2 s in the 60 s encode; looped, they drift off whole seconds (the loop is the AAC track's 60.01 s) */
const GOP_SECONDS = 2;

interface Cut {
  name: string;
  start: number;
  end: number;
  /** the engine's `exact` option */
  exact?: true;
  /** what yt-dlp is told besides the section: how to cut it */
  ytdlpFlags: string[];
}

/** the clip: 30 s from 1:30:00, and exact from 1:30:00.5 (the keyframes are at 1:29:58.95, 1:30:00.96, …: no end is on one) */
const CUTS: Cut[] = [
  { name: "keyframe cut", start: 5400, end: 5430, ytdlpFlags: [] },
  // yt-dlp's frame-exact cut re-encodes the whole clip
  { name: "exact cut", start: 5400.5, end: 5430.5, exact: true, ytdlpFlags: ["--force-keyframes-at-cuts"] },
];

/** 5400.5 → "1:30:00.5" */
function clock(seconds: number): string {
  const s = seconds % 60;
  return `${Math.floor(seconds / 3600)}:${String(Math.floor(seconds / 60) % 60).padStart(2, "0")}:${s < 10 ? "0" : ""}${s}`;
}

interface ClipMedia {
  dir: string;
  progressive: string;
  video: string;
  audio: string;
  mpd: string;
}

async function ff(args: string[], cwd: string): Promise<void> {
  await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { cwd, maxBuffer: 8 * 1024 * 1024 });
}

async function once(file: string, make: (tmp: string) => Promise<void>): Promise<void> {
  if (existsSync(file)) return;
  const tmp = `${file}.tmp`;
  await make(path.basename(tmp));
  await fs.rename(tmp, file);
}

/** Top-level boxes of an MP4 (type, offset, size), read from its head and on through the file. */
async function topLevelBoxes(file: string): Promise<Array<{ type: string; start: number; size: number }>> {
  const handle = await fs.open(file, "r");
  try {
    const { size: total } = await handle.stat();
    const boxes: Array<{ type: string; start: number; size: number }> = [];
    const head = Buffer.alloc(16);
    for (let o = 0; o + 8 <= total; ) {
      await handle.read(head, 0, 16, o);
      let size = head.readUInt32BE(0);
      if (size === 1) size = Number(head.readBigUInt64BE(8));
      if (size < 8) break;
      boxes.push({ type: head.toString("latin1", 4, 8), start: o, size });
      o += size;
    }
    return boxes;
  } finally {
    await handle.close();
  }
}

/** Everything of an MP4 but its media (mdat, moof): what a reader must know before it can seek. */
async function indexBytes(file: string): Promise<number> {
  return (await topLevelBoxes(file)).filter((b) => b.type !== "mdat" && b.type !== "moof").reduce((n, b) => n + b.size, 0);
}

async function ensureClipMedia(log: (line: string) => void): Promise<ClipMedia> {
  const dir = path.join(os.tmpdir(), "vidfetch-bench-media-v1", "clip");
  await fs.mkdir(dir, { recursive: true });
  const m: ClipMedia = { dir, progressive: path.join(dir, "long.mp4"), video: path.join(dir, "video.mp4"), audio: path.join(dir, "audio.m4a"), mpd: path.join(dir, "manifest.mpd") };
  if (!existsSync(m.mpd)) log(`generating a ${HOURS} h 1080p source for the clip rows (first run only, about a minute)…`);
  const base = path.join(dir, "base.mp4");
  // 1080p24 at about 1 Mb/s, a keyframe every 2 s: a low-bitrate lecture, not a film
  await once(base, (tmp) =>
    ff(
      [
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=24:duration=60",
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=60",
        "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "1M", "-maxrate", "1M", "-bufsize", "2M",
        "-g", "48", "-keyint_min", "48", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
        "-c:a", "aac", "-b:a", "64k", "-f", "mp4", tmp,
      ],
      dir,
    ),
  );
  await once(m.progressive, (tmp) => ff(["-stream_loop", String(LOOPS - 1), "-i", "base.mp4", "-c", "copy", "-movflags", "+faststart", "-f", "mp4", tmp], dir));
  await once(m.video, (tmp) => ff(["-i", "long.mp4", "-map", "0:v", "-c", "copy", "-movflags", "dash+global_sidx", "-f", "mp4", tmp], dir));
  // audio alone has no keyframes to cut fragments at: 10 s fragments, as YouTube's audio streams have
  await once(m.audio, (tmp) => ff(["-i", "long.mp4", "-map", "0:a", "-c", "copy", "-movflags", "dash+global_sidx", "-frag_duration", "10000000", "-f", "mp4", tmp], dir));
  if (!existsSync(m.mpd)) {
    // SegmentBase, as YouTube's DASH manifests have it: one file per representation, its index range named
    const mpd = await segmentBaseMpd(dir, `PT${HOURS}H`, {
      video: { id: "v1080", file: "video.mp4", attrs: 'codecs="avc1.640028" bandwidth="1000000" width="1920" height="1080" frameRate="24"' },
      audio: { id: "a64", file: "audio.m4a", attrs: 'codecs="mp4a.40.2" bandwidth="64000" audioSamplingRate="48000"' },
    });
    await fs.writeFile(`${m.mpd}.tmp`, mpd);
    await fs.rename(`${m.mpd}.tmp`, m.mpd);
  }
  return m;
}

interface Packet {
  pts: number;
  size: number;
  key: boolean;
}

/** The packets of a file (of one stream: `select`, e.g. "v:0") from a GOP before a cut to a second past it. */
async function packetsAround(file: string, cut: Cut, select?: string): Promise<Packet[]> {
  const { stdout } = await exec(
    "ffprobe",
    [
      ...["-v", "error", ...(select ? ["-select_streams", select] : [])],
      ...["-read_intervals", `${cut.start - GOP_SECONDS - 1}%${cut.end + 1}`, "-show_entries", "packet=pts_time,size,flags", "-of", "csv=p=0", file],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout
    .trim()
    .split("\n")
    .map((line) => line.split(","))
    .map(([pts, size, flags]) => ({ pts: Number(pts), size: Number(size), key: flags!.startsWith("K") }));
}

/** Where the cut's source frames are: its keyframes and its frames (presentation times), from a GOP before its start. */
async function sourceFrames(video: string, cut: Cut): Promise<{ keyframes: number[]; frames: number[] }> {
  const packets = await packetsAround(video, cut, "v:0");
  return { keyframes: packets.filter((p) => p.key).map((p) => p.pts), frames: packets.map((p) => p.pts) };
}

/** The bytes of the packets a clip holds, from the keyframe at or before its start (its fetch starts there) to its end. */
async function clipSampleBytes(files: string[], cut: Cut, keyframes: number[]): Promise<number> {
  const from = Math.max(...keyframes.filter((t) => t <= cut.start));
  let total = 0;
  for (const file of files) for (const p of await packetsAround(file, cut)) if (p.pts >= from && p.pts < cut.end) total += p.size;
  return total;
}

/** The MD5 of each decoded picture, in order (as they are, none dropped or repeated): of the whole file, or of `seconds` from `from`. */
async function frameHashes(file: string, span?: { from: number; seconds: number }): Promise<string[]> {
  const seek = span ? ["-ss", String(span.from), "-t", String(span.seconds)] : [];
  const decode = [...seek, "-i", file, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "framemd5", "-"];
  const { stdout } = await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", ...decode], { maxBuffer: 64 * 1024 * 1024 });
  return stdout
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => line.split(",").at(-1)!.trim());
}

/**
 * An exact clip's frames against the source's: how many it has and the source has in the span,
 * how many decode to the source's very pictures at the same place (copied, not re-encoded), and
 * how many the whole GOPs between its ends hold (what a smart cut copies).
 */
async function exactFrames(clip: string, video: string, cut: Cut, source: { keyframes: number[]; frames: number[] }) {
  const ours = await frameHashes(clip);
  const theirs = await frameHashes(video, { from: cut.start, seconds: cut.end - cut.start });
  const inner = source.keyframes.filter((t) => t >= cut.start && t <= cut.end);
  return {
    frames: ours.length,
    expected: source.frames.filter((t) => t >= cut.start && t < cut.end).length,
    copied: ours.filter((h, i) => h === theirs[i]).length,
    between: source.frames.filter((t) => t >= inner[0]! && t < inner.at(-1)!).length,
  };
}

async function durationOf(file: string): Promise<number> {
  const { stdout } = await exec("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]);
  return Number(stdout.trim());
}

interface Run {
  seconds: number;
  bytes: number;
  /** the engine's: what resolving the link fetched (a visitor's resolve, before the format is picked) */
  resolveBytes?: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const mb = (bytes: number) => fmt(bytes / 1e6, 1);

/** One side's run: wall time and what the origin sent meanwhile (counted until its last response closed). */
async function measure(origin: CountingOrigin, run: () => Promise<void>): Promise<Run> {
  await origin.settled();
  origin.reset();
  const t = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  await origin.settled();
  return { seconds, bytes: origin.bytes() };
}

export async function clipRows(opts: {
  engine: Engine;
  work: string;
  log: (line: string) => void;
  /** a signed link's bytes to a file: HTTP status */
  save: (url: string, file: string) => Promise<number>;
}): Promise<Row[]> {
  const { engine, work, log } = opts;
  const media = await ensureClipMedia(log);
  const origin = await startCountingOrigin(media.dir);
  const ytdlp = await exec("yt-dlp", ["--version"]).then(
    (r) => r.stdout.trim(),
    () => null,
  );
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
  const rows: Row[] = [];
  try {
    const shapes = [
      {
        name: `YouTube's shape: DASH, video and audio as two fragmented MP4 files with one sidx each (${mb((await fs.stat(media.video)).size + (await fs.stat(media.audio)).size)} MB)`,
        url: `${origin.origin}/manifest.mpd`,
        sources: [media.video, media.audio],
        ytdlpFormat: ["-f", "bv*+ba"],
      },
      {
        name: `a progressive MP4, moov first (${mb((await fs.stat(media.progressive)).size)} MB)`,
        url: `${origin.origin}/long.mp4`,
        sources: [media.progressive],
        ytdlpFormat: [],
      },
    ];
    for (const shape of shapes) {
      let index = 0;
      for (const source of shape.sources) index += await indexBytes(source);
      for (const cut of CUTS) {
        const video = await sourceFrames(shape.sources[0]!, cut);
        const samples = await clipSampleBytes(shape.sources, cut, video.keyframes);
        log(`clip 30 s of ${HOURS} h, ${shape.name}, ${cut.name}…`);
        const section = `*${clock(cut.start)}-${clock(cut.end)}`;
        const ours: Run[] = [];
        const theirs: Run[] = [];
        let frames: Awaited<ReturnType<typeof exactFrames>> | null = null;
        for (let i = 0; i < runs; i++) {
          const out = path.join(work, `clip-${i}.mp4`);
          // a fresh link each run (the origin ignores the query): resolve is part of the time, never a cached answer
          let resolveBytes = 0;
          const run = await measure(origin, async () => {
            const url = `${shape.url}?run=${i}-${Date.now()}`;
            const options = { tags: false, start: cut.start, end: cut.end, exact: cut.exact };
            const created = await engine.createDownload({ url, format: "mp4-1080", caller: { kind: "anonymous" }, ip: "127.0.0.1", options });
            // what the resolve fetched is counted apart: a visitor's resolve happens when the link is pasted
            await origin.settled();
            resolveBytes = origin.bytes();
            const status = await opts.save(created.downloadUrl, out);
            if (status !== 200) throw new Error(`clip failed: HTTP ${status}`);
          });
          ours.push({ seconds: run.seconds, bytes: run.bytes - resolveBytes, resolveBytes });
          const length = await durationOf(out);
          // a keyframe cut: from the keyframe at or before the start (at most one GOP early) to the end; an exact one: to the frame
          const longer = cut.exact ? 0.1 : GOP_SECONDS + 0.1;
          if (length < cut.end - cut.start - 0.1 || length > cut.end - cut.start + longer) throw new Error(`the engine's clip lasts ${length} s`);
          if (cut.exact) frames ??= await exactFrames(out, shape.sources[0]!, cut, video);
          await fs.rm(out, { force: true });
          if (ytdlp) {
            const template = path.join(work, "ytdlp-clip.%(ext)s");
            theirs.push(
              await measure(origin, async () => {
                await exec("yt-dlp", ["-q", "--no-part", ...shape.ytdlpFormat, "--merge-output-format", "mp4", "--download-sections", section, ...cut.ytdlpFlags, "-o", template, shape.url], { maxBuffer: 8 * 1024 * 1024 });
              }),
            );
            for (const f of await fs.readdir(work)) if (f.startsWith("ytdlp-clip")) await fs.rm(path.join(work, f), { force: true });
          }
        }
        const seconds = median(ours.map((r) => r.seconds));
        const bytes = median(ours.map((r) => r.bytes));
        const resolveBytes = median(ours.map((r) => r.resolveBytes ?? 0));
        const share = (bytes - index) / samples;
        const base = theirs.length > 0 ? { seconds: median(theirs.map((r) => r.seconds)), bytes: median(theirs.map((r) => r.bytes)) } : null;
        // an exact cut copies every frame of the whole GOPs between its ends, and has the clip's frames to one
        const framesRight = frames ? frames.copied >= frames.between && Math.abs(frames.frames - frames.expected) <= 1 : true;
        rows.push({
          row: `Clip: 30 s (${clock(cut.start)}–${clock(cut.end)}) of a ${HOURS} h 1080p source (a 60 s encode at about 1 Mb/s looped by stream copy), ${shape.name}, \`mp4-1080\`, ${cut.name}`,
          baseline: base ? `\`yt-dlp --download-sections "${section}"${cut.ytdlpFlags.map((f) => ` ${f}`).join("")}\` (${ytdlp}): ${fmt(base.seconds)} s, ${mb(base.bytes)} MB fetched` : "no baseline (yt-dlp not installed)",
          measured:
            `${fmt(seconds)} s (resolve included), ${mb(bytes)} MB fetched for the clip (+ ${mb(resolveBytes)} MB by the resolve); the clip's samples hold ${mb(samples)} MB, the index ${mb(index)} MB` +
            (frames ? `; ${frames.frames} frames (the source has ${frames.expected} in the span), ${frames.copied} the source's own (the whole GOPs between the ends hold ${frames.between})` : ""),
          ratio: `${base ? `${fmt(seconds / base.seconds)}× yt-dlp's time, ${fmt((bytes + resolveBytes) / base.bytes)}× its bytes (resolve included); ` : ""}clip's fetch − index = ${fmt(share)}× the clip's samples`,
          target: `< 5 s; the clip's fetch ≤ 1.5× its samples plus the index${frames ? "; only the first and last GOP re-encoded" : ""}`,
          pass: seconds < 5 && share <= 1.5 && framesRight,
        });
      }
    }
  } finally {
    await origin.close();
  }
  return rows;
}
