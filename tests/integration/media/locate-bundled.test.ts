/**
 * A fresh machine without ffmpeg on PATH still works: the ffmpeg of @ffmpeg-installer/ffmpeg is
 * used, and probing falls back to parsing `ffmpeg -i` because that package ships no ffprobe.
 */
import { execFile } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { probeStream } from "#engine/media/probe.ts";
import type { MediaTools } from "#engine/media/ffmpeg.ts";
import { MEDIA_CACHE_DIR } from "./helpers.ts";

const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "../../..");
const bundled = path.join(repoRoot, "node_modules/@ffmpeg-installer/linux-x64/ffmpeg");
const hasBundled = process.platform === "linux" && process.arch === "x64" && existsSync(bundled);
if (!hasBundled) console.log("skipping bundled-ffmpeg checks: no @ffmpeg-installer binary for this platform");

let media: MockMediaSet;
beforeAll(async () => {
  media = await ensureMockMedia(MEDIA_CACHE_DIR);
});

describe.skipIf(!hasBundled)("locateMediaTools without ffmpeg on PATH", () => {
  it("falls back to the bundled ffmpeg and reports ffprobe absent", async () => {
    const script = `import { locateMediaTools } from "./engine/media/ffmpeg.ts";
      console.log(JSON.stringify(await locateMediaTools({})));`;
    const { stdout } = await execFileAsync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: repoRoot,
      env: { ...process.env, PATH: "/nonexistent" },
    });
    const tools = JSON.parse(stdout.trim()) as MediaTools;
    expect(tools).toMatchObject({ source: "bundled", ffmpeg: bundled, ffprobe: "", probeWith: "ffmpeg" });
    expect(tools.version.length).toBeGreaterThan(0);
  });

  it("probes with the bundled ffmpeg's banner", async () => {
    const tools: MediaTools = { ffmpeg: bundled, ffprobe: "", version: "bundled", source: "bundled", probeWith: "ffmpeg", burnSubtitles: false };
    const probe = await probeStream(tools, createReadStream(media.progressive));
    expect(probe.streams.map((s) => s.codec).sort()).toEqual(["aac", "h264"]);
    expect(probe.streams.find((s) => s.kind === "video")).toMatchObject({ width: 640, height: 360 });
    expect(probe.durationSeconds).toBeCloseTo(media.durationSeconds, 0);
  });
});
