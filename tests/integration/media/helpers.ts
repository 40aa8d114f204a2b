/** Shared by the media integration tests: where mock media is cached and how files are checked. */
import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { workingMediaChildren } from "../../support/media-children.ts";

const execFileAsync = promisify(execFile);

/** One cache for every test file (generation is lock-protected across Vitest forks). */
export const MEDIA_CACHE_DIR = path.join(os.tmpdir(), "vidfetch-test-media");

export interface FileProbe {
  formatName: string;
  duration: number;
  bitRate: number;
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; bit_rate?: string; duration?: string; start_time?: string; disposition?: { attached_pic?: number } }[];
}

/** ffprobe a finished file on disk (independent of the engine's own probe code). */
export async function ffprobeFile(file: string): Promise<FileProbe> {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
  const json = JSON.parse(stdout) as { format: { format_name: string; duration: string; bit_rate: string }; streams: FileProbe["streams"] };
  return { formatName: json.format.format_name, duration: Number(json.format.duration), bitRate: Number(json.format.bit_rate), streams: json.streams };
}

/** A file's container-level tags (title, album, track…), as ffprobe reads them. */
export async function formatTags(file: string): Promise<Record<string, string>> {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", file]);
  return (JSON.parse(stdout) as { format: { tags?: Record<string, string> } }).format.tags ?? {};
}

/** Decodes the whole file: a file that only looks right in its header fails here. */
export async function decodesCleanly(file: string): Promise<string> {
  const { stderr } = await execFileAsync("ffmpeg", ["-hide_banner", "-v", "error", "-xerror", "-i", file, "-f", "null", "-"]);
  return stderr.trim();
}

/** ffmpeg and ffprobe processes at work that are children of this test process. */
export async function childFfmpegCount(): Promise<number> {
  return (await workingMediaChildren({ withProbers: true })).length;
}
