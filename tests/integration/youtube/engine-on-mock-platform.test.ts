/**
 * The whole flow a newcomer gets with MOCKS=true: the engine, the real YouTube adapter and the
 * mock platform's host map; each of the twelve formats downloads as a valid file.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "#engine/index.ts";
import { formatBytes } from "#engine/formats.ts";
import { startMockPlatform, type MockPlatform } from "#tests/mocks/platform.ts";
import { MOCK_CAPTION_LINES } from "#tests/mocks/youtube.ts";
import { sourceContext } from "./helpers.ts";

const execFileAsync = promisify(execFile);

async function probe(file: string) {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
  return JSON.parse(stdout) as {
    format: { duration: string; format_name: string; bit_rate: string };
    streams: Array<{ codec_type: string; codec_name: string; height?: number; disposition?: { attached_pic?: number } }>;
  };
}

describe("engine on the mock platform", () => {
  let platform: MockPlatform;
  let engine: Engine;
  let server: http.Server;
  let origin = "";
  let dir = "";

  beforeAll(async () => {
    platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
    dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-e2-"));
    server = http.createServer((req, res) => {
      const token = /^\/api\/v1\/dl\/([^/?]+)/.exec(req.url ?? "")?.[1];
      if (!token) return void res.writeHead(404).end();
      void engine.handleDownload(token, req, res);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { config } = sourceContext({ hostMap: platform.hostMap });
    engine = await createEngine({ ...config, publicUrl: origin, limits: { ...config.limits, resolveCacheSeconds: 60 } });
  });
  afterAll(async () => {
    await engine?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await platform?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function download(format: string) {
    const created = await engine.createDownload({ url: "https://www.youtube.com/watch?v=vidfetchAll", format, caller: { kind: "anonymous" }, ip: "127.0.0.1" });
    const res = await fetch(created.downloadUrl);
    expect(res.status, `${format}: ${res.status}`).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    const file = path.join(dir, created.filename);
    await writeFile(file, body);
    return { created, res, body, file };
  }

  it("resolves an example link with its details and formats", async () => {
    const { video, formats } = await engine.resolve("https://www.youtube.com/watch?v=vidfetchAll", { kind: "anonymous" });
    expect(video.title).toBe("Sample clip in every quality");
    const ids = formats.filter((f) => f.available).map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(["mp4-1080", "mp4-720", "mp4-480", "mp4-360", "mp3-320", "mp3-256", "mp3-128", "aac-256", "webm", "m4a", "thumbnail-hd"]));
  });

  it.each([
    ["mp4-1080", 1080],
    ["mp4-720", 720],
    ["mp4-480", 480],
    ["mp4-360", 360],
  ])("%s is an H.264 + AAC MP4 at that height", async (format, height) => {
    const { file } = await download(format);
    const p = await probe(file);
    expect(p.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height });
    expect(p.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    expect(Math.abs(Number(p.format.duration) - platform.media.durationSeconds)).toBeLessThan(1);
  });

  it.each([
    ["mp3-320", "mp3"],
    ["mp3-256", "mp3"],
    ["mp3-128", "mp3"],
    ["aac-256", "aac"],
    ["m4a", "aac"],
  ])("%s is %s audio", async (format, codec) => {
    const { file } = await download(format);
    const p = await probe(file);
    // the thumbnail as cover art (issue 33 §3) reads back as an attached picture, not a video track
    const tracks = p.streams.filter((s) => s.disposition?.attached_pic !== 1);
    expect(tracks.map((s) => s.codec_type)).toEqual(["audio"]);
    expect(tracks[0]!.codec_name).toBe(codec);
    expect(Math.abs(Number(p.format.duration) - platform.media.durationSeconds)).toBeLessThan(1);
  });

  it("webm is VP9 + Opus", async () => {
    const { file } = await download("webm");
    const p = await probe(file);
    expect(p.streams.map((s) => s.codec_name).sort()).toEqual(["opus", "vp9"]);
  });

  it("thumbnail-hd is the maxres JPEG, and its row says its real size before the download", async () => {
    const { formats } = await engine.resolve("https://www.youtube.com/watch?v=vidfetchAll", { kind: "anonymous" });
    const row = formats.find((f) => f.id === "thumbnail-hd")!;
    const { created, body } = await download("thumbnail-hd");
    expect(created.filename).toBe("youtube-thumbnail-vidfetchAll.jpg");
    expect(body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // a HEAD at resolve: the exact bytes, not the spec's "200 KB"
    expect(row).toMatchObject({ bytes: body.length, size: formatBytes(body.length) });
    expect(row.estimated).toBeUndefined();
  });

  it("transcript is the caption track as clean text, and its row says its exact size before the download", async () => {
    const { formats } = await engine.resolve("https://www.youtube.com/watch?v=vidfetchCap", { kind: "anonymous" });
    const row = formats.find((f) => f.id === "transcript")!;
    const created = await engine.createDownload({ url: "https://www.youtube.com/watch?v=vidfetchCap", format: "transcript", caller: { kind: "anonymous" }, ip: "127.0.0.1" });
    expect(created.filename).toBe("Sampleclipwithcaptions-transcript.txt");
    const res = await fetch(created.downloadUrl);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.toString("utf8")).toBe(`${MOCK_CAPTION_LINES.map((l) => l.text).join(" ")}\n`);
    // the caption track was read while the link resolved: the exact bytes, not the spec's "5-30 KB"
    expect(row).toMatchObject({ available: true, bytes: body.length, size: formatBytes(body.length) });
    expect(row.estimated).toBeUndefined();
  });
});
