/**
 * Split by chapter (issue 33 §2, docs/decisions/070) end to end through the public API: a YouTube-
 * shaped video (fragmented MP4 video and audio, each with its sidx, on a local CDN that counts the
 * bytes it sends) with four chapters, its frames numbered by a burned-in timecode. The ZIP is read
 * back entry by entry: one file per chapter in order, named after it, each the chapter's stretch
 * (from the keyframe at or before its start for a copy, to the frame for `exact`), tagged with its
 * title, the video's as album and its place as track; the CDN sent about the file once, not once per chapter; refusals before any link.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type DownloadProgress, type Engine } from "#engine/index.ts";
import { locateMediaTools } from "#engine/media/ffmpeg.ts";
import { readZip } from "#engine/media/zip/zip-test-reader.ts";
import { verifyDownload } from "#engine/serve/signed-links.ts";
import type { SourceAdapter } from "#engine/sources/types.ts";
import type { Chapter } from "#engine/types.ts";
import { createApiRouter } from "#server/api/router.ts";
import { get, testConfig } from "../engine-core/engine-fixture.ts";
import { silentLogger } from "../engine-core/helpers.ts";
import { ensureTimecodeMedia, frameNumbers, TIMECODE_FPS, TIMECODE_GOP_FRAMES, TIMECODE_SECONDS, youtubeShaped, type TimecodeMedia } from "./clip-media.ts";
import { startCountingOrigin, type CountingOrigin } from "./counting-origin.ts";
import { childFfmpegCount, decodesCleanly, formatTags } from "./helpers.ts";

const execFileAsync = promisify(execFile);
const HOST = "https://chapters.example.test";
const SECRET = "engine-core-test-secret";
const WITH_CHAPTERS = "https://www.youtube.com/watch?v=chapterSplt";
const WITHOUT_CHAPTERS = "https://www.youtube.com/watch?v=noChapters1";
const GOP_SECONDS = TIMECODE_GOP_FRAMES / TIMECODE_FPS;

/** Starts off the 2 s keyframe grid (25, 61, 91), so a copy shows where it starts from; titles a file system would refuse as they are. */
const CHAPTERS: Chapter[] = [
  { title: "Intro", start: 0, end: 25 },
  { title: "Café — the middle/part", start: 25, end: 61 },
  { title: "Third: why?", start: 61, end: 91 },
  { title: "Ending", start: 91, end: TIMECODE_SECONDS },
];
const NAMES = ["01 - Intro", "02 - Café — the middle_part", "03 - Third_ why_", "04 - Ending"];

/** The clip tests' YouTube-shaped video, with chapters for two ids: one whose audio the CDN no longer has */
function withChapters(): SourceAdapter {
  const shaped = youtubeShaped(media, HOST);
  return {
    ...shaped,
    async resolve(parsed, ctx) {
      const result = await shaped.resolve(parsed, ctx);
      if (!result.ok || parsed.kind !== "youtube" || !["chapterSplt", "chapterGone"].includes(parsed.id)) return result;
      const gone = parsed.id === "chapterGone";
      const streams = result.media.streams.map((s) => (gone && s.kind === "audio" ? { ...s, url: `${HOST}/gone.m4a` } : s));
      return { ok: true, media: { ...result.media, streams, chapters: CHAPTERS } };
    },
  };
}

let media: TimecodeMedia;
let cdn: CountingOrigin;
let engine: Engine;
let server: http.Server;
let origin: string;
let tmp: string;
let fileBytes: number;

beforeAll(async () => {
  media = await ensureTimecodeMedia();
  cdn = await startCountingOrigin(media.dir);
  engine = await createEngine(testConfig({ hostMap: `chapters.example.test=${cdn.origin}`, publicUrl: "http://127.0.0.1:1" }), {
    sources: [withChapters()],
    media: await locateMediaTools({}),
    killGraceMs: 500,
  });
  const app = express();
  app.use("/api/v1", createApiRouter({ engine, logger: silentLogger }));
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = await mkdtemp(path.join(os.tmpdir(), "vidfetch-chapter-split-"));
  fileBytes = (await stat(media.fragmentedVideo)).size + (await stat(media.fragmentedAudio)).size;
}, 180_000);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await engine?.close();
  await cdn?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const post = (body: unknown) => fetch(`${origin}/api/v1/downloads`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

interface Created {
  id: string;
  downloadUrl: string;
  filename: string;
  bytes: number | null;
}

interface Split {
  created: Created;
  headers: http.IncomingHttpHeaders;
  /** the entries written to disk, in the archive's order */
  files: Array<{ name: string; file: string }>;
  /** bytes the CDN sent while the ZIP streamed */
  fetched: number;
  progress: DownloadProgress[];
}

/** POST /downloads with the body, then the ZIP through its link, unpacked into a folder. */
async function split(body: Record<string, unknown>): Promise<Split> {
  const res = await post({ url: WITH_CHAPTERS, chapters: "split", ...body });
  expect(res.status).toBe(200);
  const created = (await res.json()) as Created;
  const progress: DownloadProgress[] = [];
  const unsubscribe = await engine.subscribeProgress(created.id, (p) => progress.push(p));
  await cdn.settled();
  cdn.reset();
  const zip = await get(origin + new URL(created.downloadUrl).pathname);
  unsubscribe();
  expect(zip.status).toBe(200);
  expect(zip.outcome).toBe("end");
  await cdn.settled();
  const dir = await mkdtemp(path.join(tmp, "zip-"));
  const files = [];
  for (const entry of readZip(zip.body).entries) {
    const file = path.join(dir, entry.name);
    await writeFile(file, entry.data);
    files.push({ name: entry.name, file });
  }
  return { created, headers: zip.headers, files, fetched: cdn.bytes(), progress };
}

async function durationOf(file: string): Promise<number> {
  const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]);
  return Number(stdout.trim());
}

const frameAt = (seconds: number) => Math.round(seconds * TIMECODE_FPS);

describe("an MP4 split by chapter (stream copy)", () => {
  let got: Split;
  beforeAll(async () => {
    got = await split({ format: "mp4-360" });
  }, 120_000);

  it("is a ZIP named after the video, its size not claimed ahead, its link carrying the split", () => {
    expect(got.created.filename).toBe("Timecode (360p) - chapters.zip");
    expect(got.created.bytes).toBeNull();
    expect(verifyDownload(SECRET, got.created.downloadUrl.split("/").pop()!, 0).options).toEqual({ tags: true, chapters: "split" });
    expect(got.headers["content-type"]).toBe("application/zip");
    expect(got.headers["content-disposition"]).toContain("filename*=UTF-8''Timecode%20%28360p%29%20-%20chapters.zip");
  });

  it("holds one file per chapter, in order, named after it", () => {
    expect(got.files.map((f) => f.name)).toEqual(NAMES.map((n) => `${n}.mp4`));
  });

  it("each file is its chapter: from the keyframe at or before its start to its end, tagged with its title, album and track", async () => {
    for (const [i, chapter] of CHAPTERS.entries()) {
      const { file } = got.files[i]!;
      expect(await decodesCleanly(file)).toBe("");
      const frames = await frameNumbers(file);
      expect(frames[0]!).toBeLessThanOrEqual(frameAt(chapter.start));
      expect(frames[0]!).toBeGreaterThan(frameAt(chapter.start) - TIMECODE_GOP_FRAMES);
      expect(Math.abs(frames.at(-1)! - frameAt(chapter.end))).toBeLessThanOrEqual(2);
      const length = await durationOf(file);
      expect(length).toBeGreaterThan(chapter.end - chapter.start - 0.1);
      expect(length).toBeLessThan(chapter.end - chapter.start + GOP_SECONDS + 0.1);
      expect(await formatTags(file)).toMatchObject({ title: chapter.title, album: "Timecode", track: `${i + 1}/4` });
    }
  }, 60_000);

  it("fetched about the file once, not once per chapter", () => {
    // each chapter reads its index again and up to a keyframe interval before its start
    expect(got.fetched).toBeGreaterThan(fileBytes * 0.9);
    expect(got.fetched).toBeLessThan(fileBytes * 1.3);
  });

  it("told its files' progress one after another, done at the end", () => {
    const told = got.progress.filter((p) => p.files).map((p) => p.files!);
    expect(told[0]).toMatchObject({ total: 4, done: 0 });
    expect(told.map((f) => f.done)).toEqual([...told.map((f) => f.done)].sort((a, b) => a - b));
    expect(told.at(-1)).toEqual({ total: 4, done: 4, failed: 0, items: CHAPTERS.map((c) => ({ status: "done", title: c.title })) });
    expect(got.progress.at(-1)!.state).toBe("done");
  });
});

describe("a split with other options", () => {
  it("an MP3 split within start and end holds the chapters the range reaches, cut to it, each exactly its length", async () => {
    const got = await split({ format: "mp3-128", start: 20, end: "1:10" });
    // the range is a clip's span, in the name as a clip's file says it
    expect(got.created.filename).toBe("Timecode (128 kbps) [0.20-1.10] - chapters.zip");
    expect(got.files.map((f) => f.name)).toEqual(["01 - Intro.mp3", "02 - Café — the middle_part.mp3", "03 - Third_ why_.mp3"]);
    const lengths = await Promise.all(got.files.map((f) => durationOf(f.file)));
    for (const [i, expected] of [5, 36, 9].entries()) expect(Math.abs(lengths[i]! - expected)).toBeLessThan(0.1);
    expect(await formatTags(got.files[1]!.file)).toMatchObject({ title: "Café — the middle/part", album: "Timecode", track: "2/3", artist: "Test" });
    // only the range was read, about once
    expect(got.fetched).toBeLessThan(fileBytes * (50 / TIMECODE_SECONDS) * 1.5 + 512 * 1024);
  }, 120_000);

  it("exact cuts each chapter at its frames", async () => {
    const got = await split({ format: "mp4-360", exact: true, start: 20, end: 31 });
    expect(verifyDownload(SECRET, got.created.downloadUrl.split("/").pop()!, 0).options).toMatchObject({ exact: true, chapters: "split" });
    expect(got.files.map((f) => f.name)).toEqual(["01 - Intro.mp4", "02 - Café — the middle_part.mp4"]);
    for (const [i, [from, to]] of [
      [20, 25],
      [25, 31],
    ].entries()) {
      const frames = await frameNumbers(got.files[i]!.file);
      expect(Math.abs(frames[0]! - frameAt(from!))).toBeLessThanOrEqual(1);
      expect(Math.abs(frames.at(-1)! - frameAt(to!))).toBeLessThanOrEqual(1);
    }
  }, 120_000);

  it("GET /download takes chapters=split into the signed link", async () => {
    const res = await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(WITH_CHAPTERS)}&format=m4a&chapters=split`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(verifyDownload(SECRET, res.headers.get("location")!.split("/").pop()!, 0).options).toEqual({ tags: true, chapters: "split" });
  });
});

describe("a split link's stream", () => {
  it("HEAD answers the ZIP's headers and opens no chapter; a visitor who leaves stops the chapter being made", async () => {
    const created = (await (await post({ url: WITH_CHAPTERS, format: "mp4-360", chapters: "split" })).json()) as Created;
    await cdn.settled();
    cdn.reset();
    const head = await fetch(origin + new URL(created.downloadUrl).pathname, { method: "HEAD" });
    expect([head.status, head.headers.get("content-type")]).toEqual([200, "application/zip"]);
    await cdn.settled();
    expect(cdn.bytes()).toBe(0);
    const left = await get(origin + new URL((await (await post({ url: WITH_CHAPTERS, format: "mp4-360", chapters: "split" })).json() as Created).downloadUrl).pathname, {}, { abortAfterBytes: 64 * 1024 });
    expect(left.outcome).toBe("error");
    for (let waited = 0; (await childFfmpegCount()) > 0 && waited < 5000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(await childFfmpegCount()).toBe(0);
    await cdn.settled();
    expect(cdn.bytes()).toBeLessThan(fileBytes / 2);
  }, 60_000);
});

describe("a chapter that fails", () => {
  it("fails the whole download: the connection breaks, and the progress says why", async () => {
    const created = (await (await post({ url: "https://www.youtube.com/watch?v=chapterGone", format: "mp4-360", chapters: "split" })).json()) as Created;
    const progress: DownloadProgress[] = [];
    const unsubscribe = await engine.subscribeProgress(created.id, (p) => progress.push(p));
    const zip = await get(origin + new URL(created.downloadUrl).pathname);
    unsubscribe();
    expect([zip.status, zip.outcome]).toEqual([200, "error"]);
    const last = progress.at(-1)!;
    expect(last.state).toBe("failed");
    expect(last.error?.code).toMatch(/^upstream\./);
    expect(progress.flatMap((p) => p.files?.items[0]?.status ?? [])).toContain("failed");
  }, 60_000);
});

describe("a job's split", () => {
  it("engine.openDownload (a scheduled download's run) gives the same ZIP as a stream", async () => {
    const opened = await engine.openDownload({ url: WITH_CHAPTERS, format: "m4a", caller: { kind: "premium", plan: "pro", userId: "u1" }, ip: "job", options: { tags: true, chapters: "split" } });
    expect([opened.filename, opened.contentType, opened.bytes]).toEqual(["Timecode - chapters.zip", "application/zip", null]);
    const entries = readZip(Buffer.concat(await opened.stream.toArray())).entries;
    expect(entries.map((e) => e.name)).toEqual(NAMES.map((n) => `${n}.m4a`));
    const last = path.join(tmp, "job-last.m4a");
    await writeFile(last, entries.at(-1)!.data);
    expect(Math.abs((await durationOf(last)) - (TIMECODE_SECONDS - 91))).toBeLessThan(0.15);
  }, 120_000);
});

describe("a split the video or format cannot give is refused before any link", () => {
  it("a video without chapters, a format without a timeline, several links", async () => {
    const noChapters = await post({ url: WITHOUT_CHAPTERS, format: "mp4-360", chapters: "split" });
    expect([noChapters.status, await errorOf(noChapters)]).toEqual([422, { code: "chapters.unavailable", message: "This video has no chapters to split it by." }]);
    for (const format of ["thumbnail-hd", "transcript"]) {
      const res = await post({ url: WITH_CHAPTERS, format, chapters: "split" });
      expect([res.status, (await errorOf(res)).code]).toEqual([422, "chapters.unavailable"]);
    }
    const query = await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(WITHOUT_CHAPTERS)}&format=mp3-128&chapters=split`, { redirect: "manual" });
    expect([query.status, (await errorOf(query)).code]).toEqual([422, "chapters.unavailable"]);
    const bulk = await engine.createBulkDownload({ urls: [WITH_CHAPTERS, WITHOUT_CHAPTERS], format: "mp3-128", caller: { kind: "premium", plan: "ultimate", userId: "u1" }, ip: "198.51.100.1", options: { tags: true, chapters: "split" } }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(bulk).toMatchObject({ code: "request.invalid", status: 400 });
  });
});
