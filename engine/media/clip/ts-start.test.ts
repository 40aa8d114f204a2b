import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tsLeadKnown, tsVideoLead } from "./ts-start.ts";

const run = promisify(execFile);

/** 1 s of MPEG-TS from ffmpeg: H.264 with B-frames (its first picture shown after its audio) and AAC. */
async function muxedTs(): Promise<Buffer> {
  const { stdout } = await run(
    "ffmpeg",
    ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=24:d=1", "-f", "lavfi", "-i", "sine=d=1", "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-c:a", "aac", "-f", "mpegts", "-"],
    { encoding: "buffer", maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

describe("a muxed TS segment's video lead", () => {
  it("is how far its first video timestamp follows the earliest, as ffprobe sees the two streams", async () => {
    const ts = await muxedTs();
    const lead = tsVideoLead(ts);
    expect(lead).not.toBeNull();
    // ffmpeg's own figures for the same bytes
    const probe = await new Promise<string>((resolve, reject) => {
      const child = execFile("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time", "-of", "csv=p=0", "-"], (err, out) => (err ? reject(err) : resolve(out)));
      child.stdin!.end(ts);
    });
    const starts = Object.fromEntries(
      probe
        .split("\n")
        .filter((l) => /^(video|audio),/.test(l))
        .map((l) => [l.split(",")[0]!, Number(l.split(",")[1])]),
    );
    const video = starts.video!;
    const earliest = Math.min(...Object.values(starts));
    expect(lead!).toBeCloseTo(video - earliest, 3);
    expect(tsLeadKnown(ts.subarray(0, 64 * 1024))).toBe(true);
  });

  it("is unknown in bytes that are no TS, or that hold no video", () => {
    expect(tsVideoLead(Buffer.alloc(4096, 7))).toBeNull();
    expect(tsLeadKnown(Buffer.alloc(0))).toBe(false);
  });
});
