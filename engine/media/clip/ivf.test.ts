import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ivfFrame, IvfReader, parseIvfHeader, vp9FrameInfo } from "./ivf.ts";

const run = promisify(execFile);

/** 2 s of VP9 at 24 fps in IVF, a keyframe every 12 frames, with alt-ref frames (superframes) as libvpx makes by default. */
async function vp9Ivf(extra: string[] = []): Promise<Buffer> {
  const { stdout } = await run(
    "ffmpeg",
    ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=24:d=2", "-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "8", "-g", "12", ...extra, "-f", "ivf", "-"],
    { encoding: "buffer", maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

/** ffprobe's packets: presentation time and the key flag. */
async function probed(ivf: Buffer): Promise<{ pts: number; key: boolean }[]> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = execFile("ffprobe", ["-v", "error", "-show_entries", "packet=pts,flags", "-of", "json", "-"], (err, o) => (err ? reject(err) : resolve(o)));
    child.stdin!.end(ivf);
  });
  return (JSON.parse(out) as { packets: { pts: number; flags: string }[] }).packets.map((p) => ({ pts: p.pts, key: p.flags.startsWith("K") }));
}

describe("IVF and VP9 frames", () => {
  it("reads the header's time base and every frame, keyframes as ffprobe flags them, however the bytes are split", async () => {
    const ivf = await vp9Ivf();
    expect(parseIvfHeader(ivf).timeBase).toEqual({ num: 1, den: 24 });
    const reader = new IvfReader();
    const frames = [];
    for (let at = 0; at < ivf.length; at += 777) frames.push(...reader.push(ivf.subarray(at, at + 777)));
    expect(reader.leftover).toBe(0);
    expect(frames.map((f) => ({ pts: f.pts, key: f.key }))).toEqual(await probed(ivf));
    expect(frames.filter((f) => f.key).map((f) => f.pts)).toEqual([0, 12, 24, 36]);
  });

  it("writes frames back byte for byte", async () => {
    const ivf = await vp9Ivf();
    const reader = new IvfReader();
    const frames = reader.push(ivf);
    expect(Buffer.concat([reader.header!.bytes, ...frames.map((f) => ivfFrame(f.pts, f.data))]).equals(ivf)).toBe(true);
  });

  it("reads a frame's profile, and no keyframe in what is not a VP9 frame", async () => {
    const [first] = new IvfReader().push(await vp9Ivf(["-pix_fmt", "yuv444p"]));
    expect(vp9FrameInfo(first!.data)).toEqual({ profile: 1, key: true });
    expect(vp9FrameInfo(Buffer.from([0x00, 0x00]))).toBeNull();
    expect(() => parseIvfHeader(Buffer.alloc(32))).toThrow(/IVF/);
  });
});
