/**
 * Chapters in files (issue 33 §2, docs/decisions/064) end to end: the engine on the local fake CDN
 * with a video that has three chapters, ffmpeg on generated media, each file's chapters read back
 * with `ffprobe -show_chapters`: MP4 (fragmented, piped) and AAC (an M4A) made by ffmpeg, MP3 (ID3
 * CHAP/CTOC in our tag), an M4A sent as it is (a chpl box in its rewritten head), a clip's chapters shifted and cut, a bare file without them.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MediaOptions } from "#engine/media/options/media-options.ts";
import type { Chapter } from "#engine/types.ts";
import { dlPath, get, startEngineFixture, WATCH_URL, type EngineFixture } from "../engine-core/engine-fixture.ts";

const execFileAsync = promisify(execFile);

let fx: EngineFixture;
let server: { origin: string; close(): Promise<void> };
let tmp: string;
let chapters: Chapter[];
let nextIp = 1;

/** ffprobe's chapters of a file: title, start and end in seconds */
async function chaptersIn(file: string): Promise<Chapter[]> {
  const { stdout } = await execFileAsync(fx.tools.ffprobe, ["-v", "error", "-print_format", "json", "-show_chapters", file]);
  const json = JSON.parse(stdout) as { chapters: Array<{ start_time: string; end_time: string; tags?: { title?: string } }> };
  return json.chapters.map((c) => ({ title: c.tags?.title ?? "", start: Number(c.start_time), end: Number(c.end_time) }));
}

async function download(format: string, ext: string, options?: MediaOptions) {
  const created = await fx.engine.createDownload({ url: WATCH_URL, format, caller: { kind: "anonymous" }, ip: `198.51.100.${nextIp++}`, ...(options ? { options } : {}) });
  const res = await get(server.origin + dlPath(created.downloadUrl));
  expect(res.outcome).toBe("end");
  const file = path.join(tmp, `${format}-${nextIp}.${ext}`);
  await writeFile(file, res.body);
  await execFileAsync(fx.tools.ffmpeg, ["-v", "error", "-xerror", "-i", file, "-f", "null", "-"]);
  return file;
}

const rounded = (list: Chapter[]) => list.map((c) => ({ title: c.title, start: Math.round(c.start * 100) / 100, end: Math.round(c.end * 100) / 100 }));

beforeAll(async () => {
  fx = await startEngineFixture({
    mapMedia: (m) => {
      const d = m.details.durationSeconds;
      chapters = [
        { title: "Opening = part; one", start: 0, end: 2 },
        { title: "Café — middle", start: 2, end: 4.5 },
        { title: "Ending", start: 4.5, end: d },
      ];
      return { ...m, chapters };
    },
  });
  server = await fx.serve();
  tmp = await mkdtemp(path.join(os.tmpdir(), "vidfetch-file-chapters-"));
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("chapters read back with ffprobe", () => {
  it("resolve reports them", async () => {
    const answer = await fx.engine.resolve(WATCH_URL, { kind: "anonymous" });
    expect("chapters" in answer && answer.chapters).toEqual(chapters);
  });

  it.each([
    ["mp4-360", "mp4"],
    ["aac-256", "m4a"],
    ["mp3-128", "mp3"],
  ])("%s carries the video's chapters", async (format, ext) => {
    const file = await download(format, ext);
    expect(rounded(await chaptersIn(file))).toEqual(rounded(chapters));
  });

  it("an M4A sent as it is carries them in its rewritten head (chpl), its announced size still exact", async () => {
    const created = await fx.engine.createDownload({ url: WATCH_URL, format: "m4a", caller: { kind: "anonymous" }, ip: "198.51.100.250" });
    const res = await get(server.origin + dlPath(created.downloadUrl));
    expect(res.outcome).toBe("end");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(created.bytes).toBe(res.body.length);
    const file = path.join(tmp, "passthrough.m4a");
    await writeFile(file, res.body);
    await execFileAsync(fx.tools.ffmpeg, ["-v", "error", "-xerror", "-i", file, "-f", "null", "-"]);
    // chpl keeps starts only: each chapter ends where the next starts, the last at the file's end
    const read = rounded(await chaptersIn(file));
    expect(read.map(({ title, start }) => ({ title, start }))).toEqual(chapters.map(({ title, start }) => ({ title, start })));
    expect(read.slice(0, -1).map((c) => c.end)).toEqual([2, 4.5]);
  });

  it("a clip's chapters are shifted to its start and cut to its end", async () => {
    const file = await download("mp4-360", "mp4", { tags: true, start: 1, end: 4 });
    expect(rounded(await chaptersIn(file))).toEqual([
      { title: "Opening = part; one", start: 0, end: 1 },
      { title: "Café — middle", start: 1, end: 3 },
    ]);
  });

  it("a bare file (tags off) has none", async () => {
    const file = await download("mp3-128", "mp3", { tags: false });
    expect(await chaptersIn(file)).toEqual([]);
  });
});
