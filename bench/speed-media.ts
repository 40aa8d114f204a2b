/**
 * Media for the engine-speed rows (issue 13), generated once with ffmpeg and cached in the temp
 * folder: one minute of 1080p H.264 + AAC, cut without re-encoding into HLS (master playlist with
 * a separate audio rendition) and DASH (separate audio adaptation set), in 4 s segments and, from
 * two minutes of it, in 1 s segments; plus a 20 s progressive MP4 for the throttled direct row.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface SpeedMedia {
  dir: string;
  /** relative to dir: HLS master playlists and DASH manifests */
  hls4: string;
  hls1: string;
  dash4: string;
  dash1: string;
  /** relative to dir: a progressive MP4 (faststart) */
  direct: string;
}

async function ff(args: string[], cwd: string): Promise<void> {
  await run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { cwd, maxBuffer: 8 * 1024 * 1024 });
}

function hls(input: string[], seconds: number, out: string): string[] {
  return [
    ...input,
    "-map", "0:v", "-map", "0:a", "-c", "copy",
    "-f", "hls", "-hls_time", String(seconds), "-hls_playlist_type", "vod", "-hls_list_size", "0",
    "-var_stream_map", "v:0,agroup:aud a:0,agroup:aud,default:yes",
    "-master_pl_name", "master.m3u8",
    "-hls_segment_filename", `${out}/%v/seg-%03d.ts`, `${out}/%v/index.m3u8`,
  ];
}

function dash(input: string[], seconds: number, out: string): string[] {
  return [
    ...input,
    "-map", "0:v", "-map", "0:a", "-c", "copy",
    "-f", "dash", "-seg_duration", String(seconds), "-use_template", "1", "-use_timeline", "0",
    "-adaptation_sets", "id=0,streams=v id=1,streams=a", `${out}/manifest.mpd`,
  ];
}

export async function ensureSpeedMedia(log: (line: string) => void): Promise<SpeedMedia> {
  const dir = path.join(os.tmpdir(), "vidfetch-bench-speed-v1");
  const m: SpeedMedia = {
    dir,
    hls4: "hls4/master.m3u8",
    hls1: "hls1/master.m3u8",
    dash4: "dash4/manifest.mpd",
    dash1: "dash1/manifest.mpd",
    direct: "direct-20s.mp4",
  };
  if (existsSync(path.join(dir, "done"))) return m;
  log("generating engine-speed media (first run only)…");
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  // 1 s GOPs at 24 fps: segments cut by copying land on keyframes at 1 s and 4 s alike
  await ff(
    [
      "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=24:duration=60",
      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=60",
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-b:v", "4M", "-maxrate", "4M", "-bufsize", "4M",
      "-x264-params", "keyint=24:min-keyint=24:scenecut=0",
      "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "src.mp4",
    ],
    dir,
  );
  await ff(["-i", "src.mp4", "-t", "20", "-c", "copy", "-movflags", "+faststart", m.direct], dir);
  for (const sub of ["hls4/0", "hls4/1", "hls1/0", "hls1/1", "dash4", "dash1"]) await fs.mkdir(path.join(dir, sub), { recursive: true });
  await ff(hls(["-i", "src.mp4"], 4, "hls4"), dir);
  await ff(dash(["-i", "src.mp4"], 4, "dash4"), dir);
  // two minutes: the same minute twice
  const twice = ["-stream_loop", "1", "-i", "src.mp4"];
  await ff(hls(twice, 1, "hls1"), dir);
  await ff(dash(twice, 1, "dash1"), dir);
  await fs.writeFile(path.join(dir, "done"), "");
  return m;
}
