import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { av1StartsWithKeyFrame, Av1KeyFrames, obusOf, OBU_SEQUENCE_HEADER, parseSequenceHeader, sequenceHeaderOf, withSequenceHeader } from "./av1.ts";
import { IvfReader } from "./ivf.ts";

const run = promisify(execFile);

/** 2 s of AV1 at 24 fps in IVF from SVT-AV1, a key frame every 12 frames, with its hidden (alt-ref) frames as it makes them by default. */
async function av1Ivf(extra: string[] = []): Promise<Buffer> {
  const { stdout } = await run(
    "ffmpeg",
    ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=s=160x96:r=24:d=2", "-c:v", "libsvtav1", "-preset", "12", "-g", "12", ...extra, "-f", "ivf", "-"],
    { encoding: "buffer", maxBuffer: 16 * 1024 * 1024, timeout: 60_000, killSignal: "SIGKILL" },
  );
  return stdout;
}

/** ffprobe's key flags of the packets. */
async function probedKeys(ivf: Buffer): Promise<boolean[]> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = execFile("ffprobe", ["-v", "error", "-show_entries", "packet=flags", "-of", "json", "-"], (err, o) => (err ? reject(err) : resolve(o)));
    child.stdin!.end(ivf);
  });
  return (JSON.parse(out) as { packets: { flags: string }[] }).packets.map((p) => p.flags.startsWith("K"));
}

describe("AV1 temporal units", () => {
  it("tells the shown key frames as ffprobe flags them, and reads the sequence header's profile and bit depth", async () => {
    const ivf = await av1Ivf();
    const keys = new Av1KeyFrames();
    const units = new IvfReader((unit) => keys.isKey(unit)).push(ivf);
    expect(units).toHaveLength(48);
    expect(units.map((u) => u.key)).toEqual(await probedKeys(ivf));
    expect(units.filter((u) => u.key).length).toBeGreaterThanOrEqual(4);
    expect(keys.sequence).toEqual({ profile: 0, bitDepth: 8, monochrome: false, reducedStillPictureHeader: false });
    // a key unit: temporal delimiter, sequence header, frame
    expect(obusOf(units[0]!.data)!.map((o) => o.type)).toEqual([2, OBU_SEQUENCE_HEADER, 6]);
    expect(av1StartsWithKeyFrame(units[1]!.data, false)).toBe(false);
  }, 60_000);

  it("reads a 10-bit sequence header, and puts a sequence header into a unit that has none", async () => {
    const [first, second] = new IvfReader(() => false).push(await av1Ivf(["-pix_fmt", "yuv420p10le"]));
    const header = sequenceHeaderOf(first!.data)!;
    expect(parseSequenceHeader(header.payload)).toMatchObject({ profile: 0, bitDepth: 10 });
    expect(sequenceHeaderOf(second!.data)).toBeNull();
    const joined = withSequenceHeader(second!.data, header.bytes);
    expect(obusOf(joined)!.map((o) => o.type)).toEqual([2, OBU_SEQUENCE_HEADER, ...obusOf(second!.data)!.slice(1).map((o) => o.type)]);
    expect(withSequenceHeader(first!.data, header.bytes)).toBe(first!.data);
  }, 60_000);

  it("refuses bytes that are no OBUs", () => {
    expect(obusOf(Buffer.from([0x80, 0x00]))).toBeNull();
    expect(obusOf(Buffer.from([0x12, 0x05, 0x00]))).toBeNull();
    expect(parseSequenceHeader(Buffer.from([0x00]))).toBeNull();
    expect(av1StartsWithKeyFrame(Buffer.from([0x12, 0x00]), false)).toBe(false);
  });
});
