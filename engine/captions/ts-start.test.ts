import { describe, expect, it } from "vitest";
import { firstTsPts } from "./ts-start.ts";

/** One 188-byte MPEG-TS packet of `pid`, its payload padded with 0xff; `adaptation`: that many bytes of adaptation field first. */
function packet(pid: number, unitStart: boolean, payload: Buffer, adaptation = 0): Buffer {
  const head = Buffer.from([0x47, (unitStart ? 0x40 : 0) | (pid >> 8), pid & 0xff, (adaptation > 0 ? 0x30 : 0x10) | 0]);
  const field = adaptation > 0 ? Buffer.concat([Buffer.from([adaptation - 1]), Buffer.alloc(adaptation - 1, 0xff)]) : Buffer.alloc(0);
  const out = Buffer.alloc(188, 0xff);
  Buffer.concat([head, field, payload]).copy(out);
  return out;
}

/** The start of a PES packet of `streamId` with a PTS. */
function pes(streamId: number, pts: number): Buffer {
  const hi = Math.floor(pts / 2 ** 30) & 0x07;
  const mid = Math.floor(pts / 2 ** 15) % 2 ** 15;
  const lo = pts % 2 ** 15;
  return Buffer.from([0, 0, 1, streamId, 0, 0, 0x80, 0x80, 5, 0x21 | (hi << 1), mid >> 7, ((mid & 0x7f) << 1) | 1, lo >> 7, ((lo & 0x7f) << 1) | 1]);
}

// a PAT: its payload starts with a pointer field and a table, not a PES start code
const PAT = packet(0, true, Buffer.from([0, 0, 0xb0, 0x0d, 0, 1, 0xc1, 0, 0, 0, 1, 0xf0, 0]));

describe("firstTsPts", () => {
  it("is the video's first PTS, even when the audio starts earlier or a later frame shows sooner", () => {
    const ts = Buffer.concat([PAT, packet(0x101, true, pes(0xc0, 131_110)), packet(0x100, true, pes(0xe0, 133_200), 8), packet(0x100, false, Buffer.alloc(10)), packet(0x100, true, pes(0xe0, 140_400))]);
    expect(firstTsPts(ts)).toBe(133_200);
    // a B-frame after the keyframe shows before it
    expect(firstTsPts(Buffer.concat([ts, packet(0x100, true, pes(0xe0, 133_100))]))).toBe(133_100);
  });

  it("without video, is the earliest stream's, counted across the 33-bit wrap", () => {
    const ts = Buffer.concat([PAT, packet(0x101, true, pes(0xc0, 2 ** 33 - 1800)), packet(0x101, true, pes(0xc0, 120)), packet(0x102, true, pes(0xc1, 2 ** 33 - 900))]);
    expect(firstTsPts(ts)).toBe(2 ** 33 - 1800);
  });

  it("is null for bytes that are not MPEG-TS or hold no PTS, and stops where the sync is lost", () => {
    expect(firstTsPts(Buffer.from("WEBVTT\n\n".repeat(100)))).toBeNull();
    expect(firstTsPts(Buffer.concat([PAT, PAT]))).toBeNull();
    expect(firstTsPts(PAT)).toBeNull();
    const lost = Buffer.concat([PAT, packet(0x100, true, pes(0xe0, 9000)), Buffer.alloc(188), packet(0x100, true, pes(0xe0, 10))]);
    expect(firstTsPts(lost)).toBe(9000);
  });
});
