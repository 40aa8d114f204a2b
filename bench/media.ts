/**
 * Benchmark media, generated once with ffmpeg and cached in the temp folder: large progressive
 * MP4s for passthrough (made by looping a 20 MB clip with stream copy, so they cost seconds, not
 * minutes), a 120-segment HLS rendition, and 10 minutes of audio.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface BenchMedia {
  dir: string;
  /** progressive H.264+AAC 360p, faststart, ~20 MB */
  mp4_20mb: string;
  /** same clip looped, ~400 MB */
  mp4_400mb: string;
  /** same clip looped, ~1 GB */
  mp4_1gb: string;
  /** HLS media playlist with 120 one-second TS segments (H.264+AAC 360p) */
  hlsPlaylist: string;
  /** 10 minutes of AAC audio (pink noise, so the encoder has real work) */
  audio10min: string;
  /** 2 s of H.264+AAC at 640x360 (~200 KB): many short downloads, each one ffmpeg run */
  clipShort: string;
}

async function ff(args: string[], cwd: string): Promise<void> {
  await run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { cwd, maxBuffer: 8 * 1024 * 1024 });
}

async function once(file: string, make: () => Promise<void>): Promise<void> {
  if (existsSync(file)) return;
  const tmp = `${file}.tmp`;
  await make();
  if (existsSync(tmp)) await fs.rename(tmp, file);
}

export async function ensureBenchMedia(log: (line: string) => void): Promise<BenchMedia> {
  const dir = path.join(os.tmpdir(), "vidfetch-bench-media-v1");
  await fs.mkdir(path.join(dir, "hls"), { recursive: true });
  const m: BenchMedia = {
    dir,
    mp4_20mb: path.join(dir, "clip-20mb.mp4"),
    mp4_400mb: path.join(dir, "clip-400mb.mp4"),
    mp4_1gb: path.join(dir, "clip-1gb.mp4"),
    hlsPlaylist: path.join(dir, "hls", "index.m3u8"),
    audio10min: path.join(dir, "audio-10min.m4a"),
    clipShort: path.join(dir, "clip-short.mp4"),
  };
  if (!existsSync(m.mp4_1gb)) log("generating benchmark media (first run only)…");
  await once(m.clipShort, () =>
    ff(
      [
        "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=2",
        "-f", "lavfi", "-i", "sine=frequency=550:sample_rate=48000:duration=2",
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
        "-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart", "-f", "mp4", `${m.clipShort}.tmp`,
      ],
      dir,
    ),
  );
  await once(m.mp4_20mb, () =>
    ff(
      [
        "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=8",
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
        "-b:v", "20M", "-minrate", "20M", "-maxrate", "20M", "-bufsize", "10M",
        "-x264-params", "nal-hrd=cbr:keyint=48:min-keyint=48:scenecut=0",
        "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-f", "mp4", `${m.mp4_20mb}.tmp`,
      ],
      dir,
    ),
  );
  await once(m.mp4_400mb, () => ff(["-stream_loop", "19", "-i", m.mp4_20mb, "-c", "copy", "-movflags", "+faststart", "-f", "mp4", `${m.mp4_400mb}.tmp`], dir));
  await once(m.mp4_1gb, () => ff(["-stream_loop", "49", "-i", m.mp4_20mb, "-c", "copy", "-movflags", "+faststart", "-f", "mp4", `${m.mp4_1gb}.tmp`], dir));
  await once(m.hlsPlaylist, async () => {
    const hlsDir = path.dirname(m.hlsPlaylist);
    await ff(
      [
        "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=120",
        "-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=120",
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-b:v", "800k",
        "-x264-params", "keyint=24:min-keyint=24:scenecut=0",
        "-c:a", "aac", "-b:a", "128k",
        "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_playlist_type", "vod",
        "-hls_segment_filename", "seg-%04d.ts", "index.m3u8.tmp",
      ],
      hlsDir,
    );
  });
  await once(m.audio10min, () =>
    ff(["-f", "lavfi", "-i", "anoisesrc=d=600:c=pink:r=44100:a=0.3", "-ac", "2", "-c:a", "aac", "-b:a", "160k", "-movflags", "+faststart", "-f", "mp4", `${m.audio10min}.tmp`], dir),
  );
  return m;
}
