/**
 * Mock media: a small, real set of audio/video files generated with ffmpeg on first use and cached
 * on disk, shaped like what platforms serve (YouTube's DASH-style video-only and audio-only
 * fragmented MP4, VP9/Opus WebM, a progressive 360p MP4, a JPEG thumbnail) plus HLS and DASH
 * folders. Used by the mock platform (MOCKS=true), integration tests and the benchmark.
 *
 * Generation is safe when several processes call it at once (Vitest forks, the dev server):
 * one process takes a lock file, builds into a temporary folder and renames it into place; the
 * others wait for the finished folder.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { pipeline, type Readable, Transform } from "node:stream";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** bump when the generated set changes, so stale caches are not reused */
const MEDIA_VERSION = 4;

export interface MockMediaSet {
  dir: string;
  durationSeconds: number;
  /** H.264 video-only, fragmented MP4 (like YouTube's DASH streams), keyframe every 2 s */
  video: { 360: string; 480: string; 720: string; 1080: string; 1440: string; 2160: string };
  /** VP9 video-only WebM 720p */
  webmVideo: string;
  /** AAC 128 kbps, fragmented M4A */
  audioM4a: string;
  /** Opus 96 kbps WebM */
  audioWebm: string;
  /** H.264+AAC 360p muxed MP4 (faststart) */
  progressive: string;
  /** 1280x720 JPEG */
  thumbnail: string;
  /**
   * HLS folder. `master.m3u8` lists: a muxed TS variant (360p), a video-only TS variant (720p)
   * with a separate audio group (`audio/index.m3u8`), and an fMP4 variant (480p, EXT-X-MAP).
   * `single/index.m3u8` is a byte-range media playlist over one TS file.
   */
  hls: string;
  /**
   * DASH folder. `manifest.mpd`: SegmentTemplate with $Number$; `timeline.mpd`: SegmentTemplate
   * with SegmentTimeline and $Time$; `list.mpd`: SegmentList; `ranges/manifest.mpd`: SegmentList
   * of byte ranges into one file per representation; `single/manifest.mpd`: SegmentBase (one
   * file per representation with a global sidx).
   */
  dash: string;
  /** absolute paths of the manifests named above */
  manifests: {
    hlsMaster: string;
    hlsTsMuxed: string;
    hlsTsVideo: string;
    hlsAudio: string;
    hlsFmp4: string;
    hlsByteRange: string;
    dashTemplate: string;
    dashTimeline: string;
    dashList: string;
    dashByteRanges: string;
    dashSegmentBase: string;
  };
}

/** 1440p and 2160p are the premium heights (Pro and Ultimate plans) */
const HEIGHTS = [360, 480, 720, 1080, 1440, 2160] as const;
const WIDTH: Record<(typeof HEIGHTS)[number], number> = { 360: 640, 480: 854, 720: 1280, 1080: 1920, 1440: 2560, 2160: 3840 };
const VIDEO_KBPS: Record<(typeof HEIGHTS)[number], number> = { 360: 300, 480: 450, 720: 700, 1080: 1100, 1440: 1500, 2160: 2000 };
const FPS = 24;
/** keyframe interval = HLS/DASH segment length (2 s) */
const GOP = FPS * 2;

const inProcess = new Map<string, Promise<MockMediaSet>>();

/** Whether the set for these options is already on disk (a start that must generate it can say so first). */
export function mockMediaReady(dir: string, opts: { durationSeconds?: number } = {}): boolean {
  return existsSync(path.join(mediaDirFor(dir, opts.durationSeconds ?? 6), COMPLETE_MARKER));
}

function mediaDirFor(dir: string, durationSeconds: number): string {
  return path.resolve(dir, `mock-media-v${MEDIA_VERSION}-${durationSeconds}s`);
}

export async function ensureMockMedia(dir: string, opts: { durationSeconds?: number } = {}): Promise<MockMediaSet> {
  const durationSeconds = opts.durationSeconds ?? 6;
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) {
    throw new RangeError(`durationSeconds must be positive, got ${durationSeconds}`);
  }
  const finalDir = mediaDirFor(dir, durationSeconds);
  let pending = inProcess.get(finalDir);
  if (!pending) {
    pending = ensureOnDisk(finalDir, durationSeconds);
    inProcess.set(finalDir, pending);
    pending.catch(() => inProcess.delete(finalDir));
  }
  return pending;
}

function describeSet(root: string, durationSeconds: number): MockMediaSet {
  const p = (...parts: string[]) => path.join(root, ...parts);
  return {
    dir: root,
    durationSeconds,
    video: {
      360: p("video-360.mp4"),
      480: p("video-480.mp4"),
      720: p("video-720.mp4"),
      1080: p("video-1080.mp4"),
      1440: p("video-1440.mp4"),
      2160: p("video-2160.mp4"),
    },
    webmVideo: p("video-720.webm"),
    audioM4a: p("audio-128.m4a"),
    audioWebm: p("audio-opus.webm"),
    progressive: p("progressive-360.mp4"),
    thumbnail: p("thumbnail.jpg"),
    hls: p("hls"),
    dash: p("dash"),
    manifests: {
      hlsMaster: p("hls", "master.m3u8"),
      hlsTsMuxed: p("hls", "ts-360", "index.m3u8"),
      hlsTsVideo: p("hls", "ts-720", "index.m3u8"),
      hlsAudio: p("hls", "audio", "index.m3u8"),
      hlsFmp4: p("hls", "fmp4-480", "index.m3u8"),
      hlsByteRange: p("hls", "single", "index.m3u8"),
      dashTemplate: p("dash", "manifest.mpd"),
      dashTimeline: p("dash", "timeline.mpd"),
      dashList: p("dash", "list.mpd"),
      dashByteRanges: p("dash", "ranges", "manifest.mpd"),
      dashSegmentBase: p("dash", "single", "manifest.mpd"),
    },
  };
}

const COMPLETE_MARKER = ".complete";

async function ensureOnDisk(finalDir: string, durationSeconds: number): Promise<MockMediaSet> {
  const set = describeSet(finalDir, durationSeconds);
  if (existsSync(path.join(finalDir, COMPLETE_MARKER))) return set;

  await fs.mkdir(path.dirname(finalDir), { recursive: true });
  const lockPath = `${finalDir}.lock`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (existsSync(path.join(finalDir, COMPLETE_MARKER))) return set;
    const lock = await tryLock(lockPath);
    if (lock) {
      try {
        if (existsSync(path.join(finalDir, COMPLETE_MARKER))) return set;
        await generateInto(finalDir, durationSeconds);
        return set;
      } finally {
        await fs.rm(lockPath, { force: true });
      }
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for mock media generation (${lockPath})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A lock file older than this belongs to a process that died while generating. */
const STALE_LOCK_MS = 180_000;

async function tryLock(lockPath: string): Promise<boolean> {
  try {
    const fh = await fs.open(lockPath, "wx");
    await fh.writeFile(String(process.pid));
    await fh.close();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const stat = await fs.stat(lockPath).catch(() => null);
    const owner = Number(await fs.readFile(lockPath, "utf8").catch(() => ""));
    const ownerGone = owner > 0 && !isAlive(owner);
    if (stat && (ownerGone || Date.now() - stat.mtimeMs > STALE_LOCK_MS)) await fs.rm(lockPath, { force: true });
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive but not ours; ESRCH: gone
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ffmpegBinary(): string {
  // Test helper: the engine gets its paths from EngineConfig; here the usual env names suffice.
  return process.env.FFMPEG_PATH || "ffmpeg";
}

async function ff(args: string[], cwd: string): Promise<void> {
  try {
    await execFileAsync(ffmpegBinary(), ["-hide_banner", "-loglevel", "error", "-y", ...args], {
      cwd,
      maxBuffer: 4 * 1024 * 1024,
    });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? "";
    throw new Error(`ffmpeg failed generating mock media: ffmpeg ${args.join(" ")}\n${stderr.slice(-2000)}`, { cause: err });
  }
}

async function generateInto(finalDir: string, d: number): Promise<void> {
  const tmp = `${finalDir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  await fs.mkdir(tmp, { recursive: true });
  try {
    await encodeAll(tmp, d);
    await fs.writeFile(path.join(tmp, COMPLETE_MARKER), new Date().toISOString());
    await fs.rm(finalDir, { recursive: true, force: true });
    await fs.rename(tmp, finalDir);
  } catch (err) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

const FRAG = ["-movflags", "frag_keyframe+empty_moov+default_base_moof"];
const X264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-x264-params", `keyint=${GOP}:min-keyint=${GOP}:scenecut=0`];

async function encodeAll(root: string, d: number): Promise<void> {
  const src = (w: number, h: number) => ["-f", "lavfi", "-i", `testsrc2=size=${w}x${h}:rate=${FPS}:duration=${d}`];
  const tone = ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${d}`];

  for (const h of HEIGHTS) {
    await ff([...src(WIDTH[h], h), ...X264, "-b:v", `${VIDEO_KBPS[h]}k`, "-maxrate", `${VIDEO_KBPS[h]}k`, "-bufsize", `${VIDEO_KBPS[h] * 2}k`, "-an", ...FRAG, "-f", "mp4", `video-${h}.mp4`], root);
  }
  await ff([...src(1280, 720), "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "500k", "-g", String(GOP), "-an", "-f", "webm", "video-720.webm"], root);
  await ff([...tone, "-ac", "2", "-c:a", "aac", "-b:a", "128k", "-vn", ...FRAG, "-f", "mp4", "audio-128.m4a"], root);
  await ff([...tone, "-ac", "2", "-c:a", "libopus", "-b:a", "96k", "-vn", "-f", "webm", "audio-opus.webm"], root);
  await ff(["-i", "video-360.mp4", "-i", "audio-128.m4a", "-map", "0:v", "-map", "1:a", "-c", "copy", "-movflags", "+faststart", "-f", "mp4", "progressive-360.mp4"], root);
  await ff([...src(1280, 720), "-frames:v", "1", "-q:v", "4", "-f", "image2", "thumbnail.jpg"], root);

  await buildHls(root);
  await buildDash(root);
}

async function buildHls(root: string): Promise<void> {
  const hls = path.join(root, "hls");
  for (const sub of ["ts-360", "ts-720", "audio", "fmp4-480", "single"]) await fs.mkdir(path.join(hls, sub), { recursive: true });
  const common = ["-f", "hls", "-hls_time", "2", "-hls_list_size", "0", "-hls_playlist_type", "vod"];
  // Everything is a stream copy of the files above: segment boundaries fall on their 2 s keyframes.
  await ff(["-i", "../../progressive-360.mp4", "-map", "0", "-c", "copy", "-bsf:v", "h264_mp4toannexb", ...common, "-hls_segment_filename", "seg-%03d.ts", "index.m3u8"], path.join(hls, "ts-360"));
  await ff(["-i", "../../video-720.mp4", "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb", ...common, "-hls_segment_filename", "seg-%03d.ts", "index.m3u8"], path.join(hls, "ts-720"));
  await ff(["-i", "../../audio-128.m4a", "-map", "0:a", "-c", "copy", ...common, "-hls_segment_filename", "seg-%03d.ts", "index.m3u8"], path.join(hls, "audio"));
  await ff(["-i", "../../video-480.mp4", "-i", "../../audio-128.m4a", "-map", "0:v", "-map", "1:a", "-c", "copy", ...common, "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4", "-hls_segment_filename", "seg-%03d.m4s", "index.m3u8"], path.join(hls, "fmp4-480"));
  await ff(["-i", "../../progressive-360.mp4", "-map", "0", "-c", "copy", "-bsf:v", "h264_mp4toannexb", ...common, "-hls_flags", "single_file", "-hls_segment_filename", "media.ts", "index.m3u8"], path.join(hls, "single"));

  const master = [
    "#EXTM3U",
    "#EXT-X-VERSION:7",
    "#EXT-X-INDEPENDENT-SEGMENTS",
    '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/index.m3u8"',
    `#EXT-X-STREAM-INF:BANDWIDTH=${(VIDEO_KBPS[360] + 140) * 1000},AVERAGE-BANDWIDTH=${(VIDEO_KBPS[360] + 130) * 1000},RESOLUTION=640x360,CODECS="avc1.42c01e,mp4a.40.2",FRAME-RATE=${FPS}`,
    "ts-360/index.m3u8",
    `#EXT-X-STREAM-INF:BANDWIDTH=${(VIDEO_KBPS[480] + 140) * 1000},AVERAGE-BANDWIDTH=${(VIDEO_KBPS[480] + 130) * 1000},RESOLUTION=854x480,CODECS="avc1.42c01e,mp4a.40.2",FRAME-RATE=${FPS}`,
    "fmp4-480/index.m3u8",
    `#EXT-X-STREAM-INF:BANDWIDTH=${(VIDEO_KBPS[720] + 140) * 1000},AVERAGE-BANDWIDTH=${(VIDEO_KBPS[720] + 130) * 1000},RESOLUTION=1280x720,CODECS="avc1.42c01f,mp4a.40.2",FRAME-RATE=${FPS},AUDIO="aud"`,
    "ts-720/index.m3u8",
    "",
  ].join("\n");
  await fs.writeFile(path.join(hls, "master.m3u8"), master);
}

/**
 * A dubbed audio track beside the set's original (issue 33 §5): the same length, an 880 Hz tone
 * (the original is 440 Hz, so a test tells them apart by frequency), as YouTube's AAC and Opus
 * files (`m4a`, `webm`) and as an HLS audio rendition (`hls/audio-<code>/index.m3u8`), with
 * `hls/master-dubbed.m3u8` listing both renditions (the original DEFAULT). Made once, beside the
 * set, on first use.
 */
export interface DubbedAudio {
  m4a: string;
  webm: string;
  hlsMaster: string;
}

export function dubbedAudioFiles(media: MockMediaSet, code: string): DubbedAudio {
  const dir = path.join(media.dir, `dub-${code}`);
  return { m4a: path.join(dir, "audio-128.m4a"), webm: path.join(dir, "audio-opus.webm"), hlsMaster: path.join(media.hls, `master-dubbed-${code}.m3u8`) };
}

export const DUB_TONE_HZ = 880;

export async function ensureDubbedAudio(media: MockMediaSet, code: string, name: string): Promise<DubbedAudio> {
  const files = dubbedAudioFiles(media, code);
  if (existsSync(files.hlsMaster)) return files;
  const d = media.durationSeconds;
  const tmp = `${path.dirname(files.m4a)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  await fs.mkdir(path.join(tmp, "hls"), { recursive: true });
  const tone = ["-f", "lavfi", "-i", `sine=frequency=${DUB_TONE_HZ}:sample_rate=48000:duration=${d}`];
  await ff([...tone, "-ac", "2", "-c:a", "aac", "-b:a", "128k", "-vn", ...FRAG, "-f", "mp4", "audio-128.m4a"], tmp);
  await ff([...tone, "-ac", "2", "-c:a", "libopus", "-b:a", "96k", "-vn", "-f", "webm", "audio-opus.webm"], tmp);
  await ff(["-i", "../audio-128.m4a", "-map", "0:a", "-c", "copy", "-f", "hls", "-hls_time", "2", "-hls_list_size", "0", "-hls_playlist_type", "vod", "-hls_segment_filename", "seg-%03d.ts", "index.m3u8"], path.join(tmp, "hls"));
  // the rendition's playlist lives under hls/ (served as /hls/…), the track's files beside the set
  const hlsDir = path.join(media.hls, `audio-${code}`);
  await fs.rm(hlsDir, { recursive: true, force: true });
  await fs.rename(path.join(tmp, "hls"), hlsDir).catch(() => undefined);
  await fs.rm(path.dirname(files.m4a), { recursive: true, force: true });
  await fs.rename(tmp, path.dirname(files.m4a)).catch(() => fs.rm(tmp, { recursive: true, force: true }));
  const master = [
    "#EXTM3U",
    "#EXT-X-VERSION:7",
    "#EXT-X-INDEPENDENT-SEGMENTS",
    '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/index.m3u8"',
    `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="${name}",LANGUAGE="${code}",DEFAULT=NO,AUTOSELECT=YES,URI="audio-${code}/index.m3u8"`,
    `#EXT-X-STREAM-INF:BANDWIDTH=${(VIDEO_KBPS[720] + 140) * 1000},AVERAGE-BANDWIDTH=${(VIDEO_KBPS[720] + 130) * 1000},RESOLUTION=1280x720,CODECS="avc1.42c01f,mp4a.40.2",FRAME-RATE=${FPS},AUDIO="aud"`,
    "ts-720/index.m3u8",
    "",
  ].join("\n");
  // written last: its presence says the track is ready
  await fs.writeFile(`${files.hlsMaster}.tmp-${process.pid}`, master);
  await fs.rename(`${files.hlsMaster}.tmp-${process.pid}`, files.hlsMaster);
  return files;
}

async function buildDash(root: string): Promise<void> {
  const dash = path.join(root, "dash");
  await fs.mkdir(path.join(dash, "single"), { recursive: true });
  await fs.mkdir(path.join(dash, "ranges"), { recursive: true });
  const inputs = ["-i", "../video-720.mp4", "-i", "../video-360.mp4", "-i", "../audio-128.m4a", "-map", "0:v", "-map", "1:v", "-map", "2:a", "-c", "copy", "-f", "dash", "-seg_duration", "2"];
  // ffmpeg's dash muxer names its temp files after the manifest, so each variant gets its own prefix.
  await ff([...inputs, "-use_template", "1", "-use_timeline", "0", "-init_seg_name", "num-init-$RepresentationID$.m4s", "-media_seg_name", "num-$RepresentationID$-$Number%03d$.m4s", "manifest.mpd"], dash);
  await ff([...inputs, "-use_template", "1", "-use_timeline", "1", "-init_seg_name", "time-init-$RepresentationID$.m4s", "-media_seg_name", "time-$RepresentationID$-$Time$.m4s", "timeline.mpd"], dash);
  await ff([...inputs, "-use_template", "0", "-use_timeline", "0", "-init_seg_name", "list-init-$RepresentationID$.m4s", "-media_seg_name", "list-$RepresentationID$-$Number%03d$.m4s", "list.mpd"], dash);
  // SegmentList with byte ranges into one file per representation.
  await ff(["-i", "../../video-720.mp4", "-i", "../../audio-128.m4a", "-map", "0:v", "-map", "1:a", "-c", "copy", "-f", "dash", "-seg_duration", "2", "-single_file", "1", "-single_file_name", "stream-$RepresentationID$.mp4", "manifest.mpd"], path.join(dash, "ranges"));
  // SegmentBase: one file per representation with a global sidx; ffmpeg's dash muxer does not
  // write this profile, so the manifest is written here from the files' box layout.
  const segbase = path.join(dash, "single");
  await ff(["-i", "../../video-720.mp4", "-c", "copy", "-movflags", "dash+global_sidx", "-f", "mp4", "video.mp4"], segbase);
  await ff(["-i", "../../audio-128.m4a", "-c", "copy", "-movflags", "dash+global_sidx", "-f", "mp4", "audio.m4a"], segbase);
  const dur = (await fs.readFile(path.join(dash, "manifest.mpd"), "utf8")).match(/mediaPresentationDuration="([^"]+)"/)?.[1] ?? "PT0S";
  const mpd = await segmentBaseMpd(segbase, dur, {
    video: { id: "v720", file: "video.mp4", attrs: `codecs="avc1.42c01f" bandwidth="${VIDEO_KBPS[720] * 1000}" width="1280" height="720" frameRate="${FPS}"` },
    audio: { id: "a128", file: "audio.m4a", attrs: 'codecs="mp4a.40.2" bandwidth="128000" audioSamplingRate="48000"' },
  });
  await fs.writeFile(path.join(segbase, "manifest.mpd"), mpd);
}

/**
 * A DASH manifest of the on-demand profile (YouTube's shape): one video and one audio file in
 * `dir`, each a fragmented MP4 with a global sidx, named with its init and index byte ranges.
 */
export async function segmentBaseMpd(
  dir: string,
  duration: string,
  reps: { video: { id: string; file: string; attrs: string }; audio: { id: string; file: string; attrs: string } },
): Promise<string> {
  const rep = async ({ id, file, attrs }: { id: string; file: string; attrs: string }) => {
    const r = await topLevelRanges(path.join(dir, file));
    return `      <Representation id="${id}" ${attrs}>\n        <BaseURL>${file}</BaseURL>\n        <SegmentBase indexRange="${r.index}"><Initialization range="${r.init}"/></SegmentBase>\n      </Representation>`;
  };
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="${duration}" minBufferTime="PT2S">`,
    "  <Period>",
    '    <AdaptationSet contentType="video" mimeType="video/mp4">',
    await rep(reps.video),
    "    </AdaptationSet>",
    '    <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="en">',
    await rep(reps.audio),
    "    </AdaptationSet>",
    "  </Period>",
    "</MPD>",
    "",
  ].join("\n");
}

/** Byte ranges of the init part (ftyp+moov) and the sidx box of an MP4 with a global sidx. */
async function topLevelRanges(file: string): Promise<{ init: string; index: string }> {
  const buf = await fs.readFile(file);
  let offset = 0;
  let moovEnd = -1;
  while (offset + 8 <= buf.length) {
    const size = buf.readUInt32BE(offset);
    const type = buf.toString("latin1", offset + 4, offset + 8);
    if (size < 8) break;
    if (type === "moov") moovEnd = offset + size - 1;
    if (type === "sidx" && moovEnd >= 0) return { init: `0-${moovEnd}`, index: `${offset}-${offset + size - 1}` };
    offset += size;
  }
  throw new Error(`no moov/sidx layout in ${file}`);
}

export interface ServeFileOptions {
  /** file streams currently open are kept here (a leak shows as a set that never empties) */
  open?: Set<Readable>;
  /** a failure other than the client leaving (a read error, say) */
  onError?: (err: Error) => void;
  /** a rate shared by every response it is given to (parallel ranges do not add up), like a slow CDN */
  throttle?: SharedRate;
}

/** Bytes per second shared by the responses that use it: each chunk waits for its share of time. */
export interface SharedRate {
  /** resolves when `bytes` more may be sent */
  take(bytes: number): Promise<void>;
}

export function createSharedRate(bytesPerSecond: number): SharedRate {
  let nextFree = 0;
  return {
    take(bytes) {
      const now = performance.now();
      const start = Math.max(now, nextFree);
      nextFree = start + (bytes / bytesPerSecond) * 1000;
      return new Promise((resolve) => setTimeout(resolve, start - now));
    },
  };
}

/** Passes chunks on no faster than `rate` allows. */
function throttled(rate: SharedRate): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      rate.take(chunk.length).then(() => done(null, chunk), done);
    },
  });
}

/**
 * Serves a media file like a CDN: one `bytes=` range (206, or 416 past the end), exact lengths,
 * HEAD. The file stream is piped with `pipeline`, which destroys it when the client leaves
 * mid-body (a cancelled download, an aborted range request); a plain `pipe()` leaves it paused
 * with its descriptor open, one per cancelled request, for the life of the process.
 */
export function serveMediaFile(req: IncomingMessage, res: ServerResponse, file: string, contentType: string, opts: ServeFileOptions = {}): void {
  const size = statSync(file).size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  let start = 0;
  let end = size - 1;
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    } else {
      start = Math.max(0, size - Number(range[2]));
    }
    if (start >= size || start > end) {
      res.writeHead(416, { "content-range": `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, {
      "content-type": contentType,
      "content-length": String(end - start + 1),
      "content-range": `bytes ${start}-${end}/${size}`,
      "accept-ranges": "bytes",
    });
  } else {
    res.writeHead(200, { "content-type": contentType, "content-length": String(size), "accept-ranges": "bytes" });
  }
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  const stream = createReadStream(file, { start, end, highWaterMark: opts.throttle ? 16 * 1024 : undefined });
  opts.open?.add(stream);
  stream.once("close", () => opts.open?.delete(stream));
  const done = (err: NodeJS.ErrnoException | null) => {
    // the client leaving early is the normal end of a cancelled download
    if (err && err.code !== "ERR_STREAM_PREMATURE_CLOSE") opts.onError?.(err);
  };
  if (opts.throttle) pipeline(stream, throttled(opts.throttle), res, done);
  else pipeline(stream, res, done);
}
