/**
 * Tags and cover art (issue 33 §3) end to end: the engine on the local fake CDN, ffmpeg on
 * generated media, each file read back with ffprobe. The cover is the mock thumbnail (a JPEG
 * made by ffmpeg); the thumbnail's host is made to fail, hang or vanish to show the file still
 * arrives whole, without a cover.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MediaOptions } from "#engine/media/options/media-options.ts";
import { dlPath, get, startEngineFixture, WATCH_URL, type EngineFixture } from "../engine-core/engine-fixture.ts";

const execFileAsync = promisify(execFile);
const anonymous = { kind: "anonymous" as const };

let fx: EngineFixture;
let server: { origin: string; close(): Promise<void> };
let tmp: string;
let thumbnail: Buffer;
let nextIp = 1;

interface Probe {
  format: { format_name: string; duration: string; tags?: Record<string, string> };
  streams: Array<{ codec_type: string; codec_name: string; disposition?: { attached_pic?: number } }>;
}

async function probe(file: string): Promise<Probe> {
  const { stdout } = await execFileAsync(fx.tools.ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
  return JSON.parse(stdout) as Probe;
}

/** the attached picture's bytes, as a player would take them out of the file */
async function coverOf(file: string): Promise<Buffer> {
  const { stdout } = await execFileAsync(fx.tools.ffmpeg, ["-v", "error", "-i", file, "-map", "0:v:m:attached_pic:1?", "-map", "0:v:0?", "-c", "copy", "-frames:v", "1", "-f", "image2pipe", "-"], {
    encoding: "buffer",
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

async function decodes(file: string): Promise<void> {
  await execFileAsync(fx.tools.ffmpeg, ["-v", "error", "-xerror", "-i", file, "-f", "null", "-"]);
}

/** one download through a signed link, saved to disk: its file, headers and the size announced */
async function download(format: string, options?: MediaOptions, headers: Record<string, string> = {}) {
  const created = await fx.engine.createDownload({ url: WATCH_URL, format, caller: anonymous, ip: `198.51.100.${nextIp++}`, ...(options ? { options } : {}) });
  const res = await get(server.origin + dlPath(created.downloadUrl), headers);
  expect(res.outcome).toBe("end");
  const file = path.join(tmp, `${format}-${nextIp}.${format.startsWith("mp3") ? "mp3" : format.startsWith("mp4") ? "mp4" : "m4a"}`);
  await writeFile(file, res.body);
  return { file, res, created };
}

const tagsOf = (p: Probe) => p.format.tags ?? {};
const covers = (p: Probe) => p.streams.filter((s) => s.disposition?.attached_pic === 1);

beforeAll(async () => {
  fx = await startEngineFixture();
  server = await fx.serve();
  tmp = await mkdtemp(path.join(os.tmpdir(), "vidfetch-file-tags-"));
  thumbnail = await readFile(fx.media.thumbnail);
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("tagged files read back with ffprobe", () => {
  it("an MP3 carries title, artist, date, the source link and the thumbnail as its cover (ID3v2.4 ahead of the frames)", async () => {
    const { file, res } = await download("mp3-128");
    expect(res.body.subarray(0, 4).toString("latin1")).toBe("ID3\x04");
    const p = await probe(file);
    expect(p.format.format_name).toBe("mp3");
    expect(tagsOf(p)).toMatchObject({ title: "Café au lait: a test — video", artist: "Test", date: "2026-01-01", comment: WATCH_URL });
    expect(covers(p)).toHaveLength(1);
    expect((await coverOf(file)).equals(thumbnail)).toBe(true);
    expect(Number(p.format.duration)).toBeCloseTo(fx.media.durationSeconds, 0);
    await decodes(file);
  });

  it("an M4A sent as it is carries the tags and the cover in its moov, with the length announced and resumable ranges", async () => {
    const { file, res, created } = await download("m4a");
    const original = await readFile(fx.media.audioM4a);
    expect(res.status).toBe(200);
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    // the size shown before the download is the tagged file's
    expect(created.bytes).toBe(res.body.length);
    expect(res.body.length).toBeGreaterThan(original.length + thumbnail.length);
    const p = await probe(file);
    expect(tagsOf(p)).toMatchObject({ title: "Café au lait: a test — video", artist: "Test", date: "2026-01-01", comment: WATCH_URL });
    expect((await coverOf(file)).equals(thumbnail)).toBe(true);
    await decodes(file);
    // a resume of the same link lands on the same bytes: inside the new head, and past it
    const again = await fx.engine.createDownload({ url: WATCH_URL, format: "m4a", caller: anonymous, ip: "198.51.100.200" });
    for (const [from, to] of [
      [100, 5_000],
      [res.body.length - 20_000, res.body.length - 1],
      [0, res.body.length - 1],
    ] as const) {
      const part = await get(server.origin + dlPath(again.downloadUrl), { range: `bytes=${from}-${to}` });
      expect(part.status).toBe(206);
      expect(part.headers["content-range"]).toBe(`bytes ${from}-${to}/${res.body.length}`);
      expect(part.body.equals(res.body.subarray(from, to + 1))).toBe(true);
    }
  });

  it("an AAC file (AAC in an M4A) carries the same tags and cover", async () => {
    const { file } = await download("aac-256");
    const p = await probe(file);
    expect(p.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    expect(tagsOf(p)).toMatchObject({ title: "Café au lait: a test — video", artist: "Test", date: "2026-01-01", comment: WATCH_URL });
    expect((await coverOf(file)).equals(thumbnail)).toBe(true);
    await decodes(file);
  });

  it("an MP4 video carries title, artist, date and description, and no cover", async () => {
    const { file } = await download("mp4-360");
    const p = await probe(file);
    expect(tagsOf(p)).toMatchObject({ title: "Café au lait: a test — video", artist: "Test", date: "2026-01-01" });
    expect(covers(p)).toHaveLength(0);
    expect(p.streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
    await decodes(file);
  });

  it("tags: false leaves every file bare", async () => {
    const original = await readFile(fx.media.audioM4a);
    const m4a = await download("m4a", { tags: false });
    expect(m4a.res.body.equals(original)).toBe(true);
    expect(m4a.created.bytes).toBe(original.length);
    for (const format of ["mp3-128", "aac-256", "mp4-360"]) {
      const { file, res } = await download(format, { tags: false });
      expect(res.body.subarray(0, 3).toString("latin1")).not.toBe("ID3");
      const p = await probe(file);
      expect(tagsOf(p).title).toBeUndefined();
      expect(tagsOf(p).artist).toBeUndefined();
      expect(covers(p)).toHaveLength(0);
    }
  });
});

describe("a thumbnail that fails never fails the file", () => {
  it("a thumbnail host answering 404: the MP3 and the M4A arrive whole, tagged, without a cover, at the length announced", async () => {
    const thumb = fx.upstream.files.get("/thumb.jpg")!;
    // announced with a cover (the thumbnail was measured when the link resolved), then the host loses it
    const m4aLink = await fx.engine.createDownload({ url: WATCH_URL, format: "m4a", caller: anonymous, ip: "198.51.100.201" });
    fx.upstream.files.delete("/thumb.jpg");
    try {
      const m4a = await get(server.origin + dlPath(m4aLink.downloadUrl));
      expect(m4a.outcome).toBe("end");
      expect(m4a.body.length).toBe(m4aLink.bytes);
      const m4aFile = path.join(tmp, "no-cover.m4a");
      await writeFile(m4aFile, m4a.body);
      const p = await probe(m4aFile);
      expect(tagsOf(p).title).toBe("Café au lait: a test — video");
      expect(covers(p)).toHaveLength(0);
      await decodes(m4aFile);

      const { file } = await download("mp3-128");
      const mp3 = await probe(file);
      expect(tagsOf(mp3).artist).toBe("Test");
      expect(covers(mp3)).toHaveLength(0);
      expect(Number(mp3.format.duration)).toBeCloseTo(fx.media.durationSeconds, 0);
      await decodes(file);
    } finally {
      fx.upstream.files.set("/thumb.jpg", thumb);
    }
  });

  it("a thumbnail host that hangs: the file waits for its cover a few seconds at most, then arrives whole without one", async () => {
    const thumb = fx.upstream.files.get("/thumb.jpg")!;
    fx.upstream.files.set("/thumb.jpg", { ...thumb, delayMs: 60_000 });
    try {
      const started = Date.now();
      const { file } = await download("mp3-128");
      expect(Date.now() - started).toBeLessThan(15_000);
      const p = await probe(file);
      expect(tagsOf(p).title).toBe("Café au lait: a test — video");
      expect(covers(p)).toHaveLength(0);
      await decodes(file);
    } finally {
      fx.upstream.files.set("/thumb.jpg", thumb);
    }
  }, 30_000);
});
