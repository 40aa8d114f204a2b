import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mp4TagBytes, scanHead } from "./mp4-tags.ts";
import { tagMp4Head, withMp4Tags } from "./tag-stream.ts";
import type { FileTags } from "./tag-fields.ts";

const run = promisify(execFile);
const tags: FileTags = {
  style: "mp4",
  fields: { title: "Ünïcode — 日本語", artist: "Channel", date: "2026-06-03", comment: "", description: "What the video is about, in its own words." },
  cover: null,
};
let dir: string;
let cover: { mimeType: "image/jpeg"; data: Buffer };

async function ffmpeg(args: string[], name: string): Promise<Buffer> {
  const file = path.join(dir, name);
  await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=160x90:d=2", "-f", "lavfi", "-i", "sine=d=2", "-c:v", "libx264", "-c:a", "aac", ...args, file]);
  return readFile(file);
}

async function probe(data: Buffer, name: string) {
  const file = path.join(dir, name);
  await writeFile(file, data);
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
  await run("ffmpeg", ["-v", "error", "-xerror", "-i", file, "-f", "null", "-"]);
  return JSON.parse(stdout) as { format: { tags?: Record<string, string>; duration: string }; streams: Array<{ codec_type: string; disposition: { attached_pic: number } }> };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-mp4-tags-"));
  await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=s=64x64", "-frames:v", "1", path.join(dir, "cover.jpg")]);
  cover = { mimeType: "image/jpeg", data: await readFile(path.join(dir, "cover.jpg")) };
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("MP4 tags in the moov", () => {
  it("an unfragmented MP4 with its moov first: tags and cover read back, chunk offsets moved with them", async () => {
    const original = await ffmpeg(["-movflags", "+faststart", "-f", "mp4"], "faststart.mp4");
    const tagged = tagMp4Head(original, { ...tags, cover: { url: "x", bytes: cover.data.length } }, cover, cover.data.length, true);
    expect(tagged).not.toBeNull();
    expect(tagged!.added).toBe(mp4TagBytes(tags.fields, cover.data.length));
    const file = Buffer.concat([tagged!.head, original.subarray(tagged!.replaces)]);
    const p = await probe(file, "faststart-tagged.mp4");
    expect(p.format.tags).toMatchObject({ title: tags.fields.title, artist: "Channel", date: "2026-06-03", description: tags.fields.description });
    expect(p.streams.filter((s) => s.disposition.attached_pic === 1)).toHaveLength(1);
    expect(Number(p.format.duration)).toBeCloseTo(2, 0);
  });

  it("a cover promised but not fetched keeps its room, so the size is the one announced", async () => {
    const original = await ffmpeg(["-movflags", "+faststart", "-f", "mp4"], "faststart2.mp4");
    const tagged = tagMp4Head(original, tags, null, 5_000, true);
    expect(tagged!.added).toBe(mp4TagBytes(tags.fields, 5_000));
    const p = await probe(Buffer.concat([tagged!.head, original.subarray(tagged!.replaces)]), "padded.mp4");
    expect(p.format.tags?.title).toBe(tags.fields.title);
    expect(p.streams.filter((s) => s.disposition.attached_pic === 1)).toHaveLength(0);
  });

  it("a fragmented MP4 as ffmpeg writes it to a pipe, through the stream", async () => {
    const original = await ffmpeg(["-movflags", "frag_keyframe+empty_moov+default_base_moof+skip_trailer", "-f", "mp4"], "fragmented.mp4");
    // small chunks, as a socket would hand them over
    const chunks = Array.from({ length: Math.ceil(original.length / 1000) }, (_, i) => original.subarray(i * 1000, (i + 1) * 1000));
    const out = await withMp4Tags(tags, cover, Readable.from(chunks), new AbortController().signal);
    const parts: Buffer[] = [];
    for await (const c of out.stream) parts.push(c as Buffer);
    const file = Buffer.concat(parts);
    expect(file.length).toBe(original.length + out.added);
    const p = await probe(file, "fragmented-tagged.mp4");
    expect(p.format.tags).toMatchObject({ title: tags.fields.title, description: tags.fields.description });
    expect(p.streams.filter((s) => s.disposition.attached_pic === 1)).toHaveLength(1);
  });

  it("leaves alone what it cannot tag safely: the moov after the media, fragments with absolute offsets", async () => {
    const late = await ffmpeg(["-f", "mp4"], "moov-last.mp4");
    expect(scanHead(late)).toMatchObject({ state: "untaggable" });
    expect(tagMp4Head(late, tags, null)).toBeNull();
    const absolute = await ffmpeg(["-movflags", "frag_keyframe+empty_moov", "-f", "mp4"], "absolute.mp4");
    expect(tagMp4Head(absolute, tags, null)).toBeNull();
    const out = await withMp4Tags(tags, null, Readable.from([absolute]), new AbortController().signal);
    const parts: Buffer[] = [];
    for await (const c of out.stream) parts.push(c as Buffer);
    expect(out.added).toBe(0);
    expect(Buffer.concat(parts).equals(absolute)).toBe(true);
  });
});
