import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { idleWarmPids } from "#engine/media/warm-processes.ts";

const execFileAsync = promisify(execFile);

/**
 * Process ids of the ffmpeg (and, with `withProbers`, ffprobe) processes that are children of
 * this test process and at work: the ones started ahead and waiting idle on purpose
 * (engine/media/warm-processes.ts) are left out.
 */
export async function workingMediaChildren(opts: { withProbers?: boolean } = {}): Promise<number[]> {
  const { stdout } = await execFileAsync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)]).catch(() => ({ stdout: "" }));
  const names = opts.withProbers ? ["ffmpeg", "ffprobe"] : ["ffmpeg"];
  const idle = new Set(idleWarmPids());
  return stdout
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => names.includes(p[1] ?? "") && !idle.has(Number(p[0])))
    .map((p) => Number(p[0]));
}
