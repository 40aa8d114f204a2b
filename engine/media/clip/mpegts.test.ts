import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ContinuityCounters, NAL, nalUnits, PacketReader, packetPid, TS_CLOCK, TS_PACKET_BYTES, VideoUnitReader, type OtherPes, type VideoUnit } from "./mpegts.ts";

const run = promisify(execFile);

/** 2 s of MPEG-TS from ffmpeg: H.264 at 24 fps with an IDR every second and B-frames, and AAC. */
async function muxedTs(): Promise<Buffer> {
  const { stdout } = await run(
    "ffmpeg",
    [
      ...["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=24:d=2", "-f", "lavfi", "-i", "sine=d=2"],
      ...["-c:v", "libx264", "-preset", "veryfast", "-g", "24", "-keyint_min", "24", "-sc_threshold", "0", "-bf", "2", "-c:a", "aac", "-f", "mpegts", "-"],
    ],
    { encoding: "buffer", maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

/** ffprobe's packets of the video stream: presentation and decoding times (90 kHz) and the key flag. */
async function probedVideo(ts: Buffer): Promise<{ pts: number; dts: number; key: boolean }[]> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = execFile("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts,dts,flags", "-of", "json", "-"], (err, o) => (err ? reject(err) : resolve(o)));
    child.stdin!.end(ts);
  });
  const packets = (JSON.parse(out) as { packets: { pts: number; dts: number; flags: string }[] }).packets;
  return packets.map((p) => ({ pts: p.pts, dts: p.dts, key: p.flags.startsWith("K") }));
}

function readAll(ts: Buffer, chunk: number): { units: VideoUnit[]; audio: OtherPes[] } {
  const packets = new PacketReader();
  const reader = new VideoUnitReader();
  const units: VideoUnit[] = [];
  const audio: OtherPes[] = [];
  for (let at = 0; at < ts.length; at += chunk) {
    units.push(...reader.push(packets.push(ts.subarray(at, at + chunk))));
    audio.push(...reader.takeOtherPes());
  }
  const last = reader.flush();
  if (last) units.push(last);
  audio.push(...reader.takeOtherPes());
  expect(packets.leftover).toBe(0);
  return { units, audio };
}

describe("the video units of an MPEG-TS stream", () => {
  it("are ffprobe's packets, in order, with their times, their IDR frames and the parameter sets those carry", async () => {
    const ts = await muxedTs();
    const probed = await probedVideo(ts);
    // chunks that cut packets in two are put back together
    for (const chunk of [1000, 64 * 1024]) {
      const { units, audio } = readAll(ts, chunk);
      expect(units.map((u) => [u.pts, u.dts])).toEqual(probed.map((p) => [p.pts, p.dts]));
      expect(units.map((u) => u.idr)).toEqual(probed.map((p) => p.key));
      expect(units.filter((u) => u.idr).map((u) => u.pts - units[0]!.pts)).toEqual([0, TS_CLOCK]);
      for (const u of units) expect(u.parameterSets.map((n) => n[0]! & 0x1f).sort()).toEqual(u.idr ? [NAL.sps, NAL.pps] : []);
      // every packet is handed out once: the video's with the tables, the audio's in its own PES
      const count = (list: { packets: Buffer[] }[]) => list.reduce((n, u) => n + u.packets.length, 0);
      expect(count(units) + count(audio)).toBe(ts.length / TS_PACKET_BYTES);
      expect(audio.length).toBeGreaterThan(1);
      expect(audio.every((pes, i) => i === 0 || pes.pts > audio[i - 1]!.pts)).toBe(true);
    }
  });

  it("refuses bytes that lose the sync byte", () => {
    expect(() => new PacketReader().push(Buffer.alloc(TS_PACKET_BYTES * 2, 0x47).fill(0, TS_PACKET_BYTES))).toThrow(/sync/);
  });
});

describe("NAL units", () => {
  it("are split at 3- and 4-byte start codes, trailing zeros dropped", () => {
    const b = Buffer.from([0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 0, 0, 1, 0x65, 9]);
    expect(nalUnits(b).map((n) => [...n])).toEqual([[0x67, 1, 2], [0x68, 3], [0x65, 9]]);
  });
});

describe("continuity counters across joined parts", () => {
  it("run on per PID, a packet without payload repeating its counter", () => {
    const packet = (pid: number, cc: number, payload = true) => {
      const p = Buffer.alloc(TS_PACKET_BYTES, 0xff);
      p[0] = 0x47;
      p[1] = pid >> 8;
      p[2] = pid & 0xff;
      p[3] = (payload ? 0x10 : 0x20) | cc;
      return p;
    };
    const counters = new ContinuityCounters();
    // a first part ends at 5, the next part starts again at 0
    const fixed = [packet(0x100, 4), packet(0x100, 5), packet(0x101, 9), packet(0x100, 0), packet(0x100, 1, false), packet(0x100, 1), packet(0x101, 0)].map((p) => counters.fix(p));
    expect(fixed.map((p) => [packetPid(p), p[3]! & 0x0f])).toEqual([
      [0x100, 4],
      [0x100, 5],
      [0x101, 9],
      [0x100, 6],
      [0x100, 6],
      [0x100, 7],
      [0x101, 10],
    ]);
  });
});
