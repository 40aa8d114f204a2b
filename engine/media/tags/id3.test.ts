import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildId3Tag, id3TagBytes, syncSafe } from "./id3.ts";
import type { TagFields } from "./tag-fields.ts";

const run = promisify(execFile);
const fields: TagFields = { title: "Ünïcode — 日本語 🎵", artist: "Channel ☃", date: "2026-06-03", comment: "https://www.youtube.com/watch?v=aBcDeFgHiJk", description: "" };
/** the APIC frame carries the bytes as they are: a JPEG's start marker and filler do */
const picture = { mimeType: "image/jpeg" as const, data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 7)]) };

/** the frames of a tag: id, declared size, body */
function frames(tag: Buffer): Array<{ id: string; size: number; body: Buffer }> {
  const readSyncSafe = (at: number) => (tag[at]! << 21) | (tag[at + 1]! << 14) | (tag[at + 2]! << 7) | tag[at + 3]!;
  const end = 10 + readSyncSafe(6);
  const out = [];
  for (let at = 10; at < end; ) {
    const size = readSyncSafe(at + 4);
    out.push({ id: tag.toString("latin1", at, at + 4), size, body: tag.subarray(at + 10, at + 10 + size) });
    at += 10 + size;
  }
  return out;
}

describe("syncSafe", () => {
  it("spreads 28 bits over four bytes with the top bit of each clear", () => {
    expect([...syncSafe(0)]).toEqual([0, 0, 0, 0]);
    expect([...syncSafe(127)]).toEqual([0, 0, 0, 127]);
    expect([...syncSafe(128)]).toEqual([0, 0, 1, 0]);
    expect([...syncSafe(2 ** 28 - 1)]).toEqual([127, 127, 127, 127]);
    expect(() => syncSafe(2 ** 28)).toThrow(RangeError);
    expect(() => syncSafe(-1)).toThrow(RangeError);
  });
});

describe("buildId3Tag", () => {
  it("writes an ID3v2.4 header whose synchsafe size is the frames' length", () => {
    const tag = buildId3Tag(fields, picture);
    expect(tag.subarray(0, 6)).toEqual(Buffer.from([0x49, 0x44, 0x33, 4, 0, 0]));
    const size = (tag[6]! << 21) | (tag[7]! << 14) | (tag[8]! << 7) | tag[9]!;
    expect(size).toBe(tag.length - 10);
    for (const b of tag.subarray(6, 10)) expect(b & 0x80).toBe(0);
  });

  it("lays out TIT2, TPE1, TDRC, COMM and APIC in order, text as UTF-8, sizes synchsafe", () => {
    const list = frames(buildId3Tag(fields, picture));
    expect(list.map((f) => f.id)).toEqual(["TIT2", "TPE1", "TDRC", "COMM", "APIC"]);
    const text = (f: { body: Buffer }) => f.body.subarray(1).toString("utf8");
    expect(list[0]!.body[0]).toBe(3);
    expect(text(list[0]!)).toBe(fields.title);
    expect(text(list[1]!)).toBe(fields.artist);
    expect(text(list[2]!)).toBe("2026-06-03");
    // COMM: encoding, "eng", empty description, the link
    expect(list[3]!.body.subarray(0, 5)).toEqual(Buffer.from([3, 0x65, 0x6e, 0x67, 0]));
    expect(list[3]!.body.subarray(5).toString("utf8")).toBe(fields.comment);
    // APIC: encoding, MIME, NUL, front cover (3), empty description, the picture
    const apic = list[4]!.body;
    expect(apic.subarray(0, 12).toString("latin1")).toBe("\x03image/jpeg\x00");
    expect(apic[12]).toBe(3);
    expect(apic[13]).toBe(0);
    expect(apic.subarray(14).equals(picture.data)).toBe(true);
    // a frame over 127 bytes shows the synchsafe size at work
    expect(list[4]!.size).toBe(apic.length);
    expect(list[4]!.size).toBeGreaterThan(127);
  });

  it("writes the audio's language as TLAN after the date, three letters in UTF-8", () => {
    const list = frames(buildId3Tag({ ...fields, language: "ger" }, null));
    expect(list.map((f) => f.id)).toEqual(["TIT2", "TPE1", "TDRC", "TLAN", "COMM"]);
    expect([...list[3]!.body]).toEqual([3, 0x67, 0x65, 0x72]);
    expect(id3TagBytes({ ...fields, language: "ger" }, null)).toBe(id3TagBytes(fields, null) + 14);
  });

  it("writes a chapter file's album and track (TALB, TRCK \"n/total\") after the artist", () => {
    const list = frames(buildId3Tag({ ...fields, album: "The video", track: { number: 3, total: 12 } }, null));
    expect(list.map((f) => f.id)).toEqual(["TIT2", "TPE1", "TALB", "TRCK", "TDRC", "COMM"]);
    expect(list[3]!.body.subarray(1).toString("utf8")).toBe("3/12");
  });

  it("leaves out the fields a video does not have", () => {
    expect(frames(buildId3Tag({ ...fields, date: "", comment: "" }, null)).map((f) => f.id)).toEqual(["TIT2", "TPE1"]);
  });

  it("knows its size ahead: exactly, with or without a cover", () => {
    expect(id3TagBytes(fields, null)).toBe(buildId3Tag(fields, null).length);
    expect(id3TagBytes(fields, picture.data.length)).toBe(buildId3Tag(fields, picture).length);
  });
});

describe("an ID3 tag ahead of ffmpeg's MP3 reads back in ffprobe", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-id3-"));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("title, artist, date, language, comment and the picture", async () => {
    const cover = path.join(dir, "cover.jpg");
    await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=s=64x64", "-frames:v", "1", cover]);
    const { stdout: mp3 } = await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=1", "-c:a", "libmp3lame", "-write_id3v1", "0", "-id3v2_version", "0", "-f", "mp3", "-"], {
      encoding: "buffer",
    });
    expect(mp3.subarray(0, 3).toString("latin1")).not.toBe("ID3");
    const jpeg = { mimeType: "image/jpeg" as const, data: await readFile(cover) };
    const file = path.join(dir, "tagged.mp3");
    await writeFile(file, Buffer.concat([buildId3Tag({ ...fields, language: "ger" }, jpeg), mp3]));
    const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
    const probe = JSON.parse(stdout) as { format: { tags: Record<string, string> }; streams: Array<{ codec_name: string; disposition: { attached_pic: number } }> };
    expect(probe.format.tags).toMatchObject({ title: fields.title, artist: fields.artist, date: "2026-06-03", comment: fields.comment, language: "ger" });
    expect(probe.streams.map((s) => [s.codec_name, s.disposition.attached_pic])).toEqual([
      ["mp3", 0],
      ["mjpeg", 1],
    ]);
  });
});
