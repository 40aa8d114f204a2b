import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { animatedWebp, frameDurations, webpChunks, webpSize } from "./animated-webp.ts";

/** A real still WebP made by ffmpeg's libwebp (lossy, or lossless: VP8L). */
function stillWebp(size: string, source: string, lossless = false): Uint8Array {
  const args = ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `${source}=size=${size}:rate=1`, "-frames:v", "1", "-c:v", "libwebp", ...(lossless ? ["-lossless", "1"] : []), "-f", "image2pipe", "pipe:1"];
  return new Uint8Array(execFileSync("ffmpeg", args));
}

const u24 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

describe("animated WebP container", () => {
  it("reads the size of lossy and lossless stills", () => {
    expect(webpSize(webpChunks(stillWebp("33x17", "testsrc")))).toEqual({ width: 33, height: 17 });
    expect(webpSize(webpChunks(stillWebp("33x17", "testsrc", true)))).toEqual({ width: 33, height: 17 });
  });

  it("wraps each still's image chunk in an ANMF frame after VP8X and ANIM, byte for byte", () => {
    const a = stillWebp("33x17", "testsrc");
    const b = stillWebp("33x17", "rgbtestsrc");
    const out = animatedWebp([{ webp: a, durationMs: 67 }, { webp: b, durationMs: 66 }], { width: 33, height: 17 });
    const riffSize = new DataView(out.buffer).getUint32(4, true);
    expect(riffSize).toBe(out.length - 8);
    const chunks = webpChunks(out);
    expect(chunks.map((c) => c.fourcc)).toEqual(["VP8X", "ANIM", "ANMF", "ANMF"]);
    const vp8x = chunks[0]!.payload;
    expect(vp8x[0]).toBe(0b10); // animation, no alpha
    expect([u24(vp8x, 4) + 1, u24(vp8x, 7) + 1]).toEqual([33, 17]);
    expect(Array.from(chunks[1]!.payload)).toEqual([0xff, 0xff, 0xff, 0xff, 0, 0]);
    for (const [i, still, ms] of [[2, a, 67], [3, b, 66]] as const) {
      const frame = chunks[i]!.payload;
      expect([u24(frame, 0), u24(frame, 3), u24(frame, 6) + 1, u24(frame, 9) + 1, u24(frame, 12), frame[15]]).toEqual([0, 0, 33, 17, ms, 0b10]);
      const original = webpChunks(still).find((c) => c.fourcc === "VP8 ")!;
      expect(Buffer.from(frame.subarray(16)).equals(Buffer.from(original.bytes))).toBe(true);
    }
  });

  it("keeps chunks with an odd size padded, and marks lossless frames as possibly transparent", () => {
    const still = stillWebp("7x5", "testsrc", true);
    const out = animatedWebp([{ webp: still, durationMs: 100 }, { webp: still, durationMs: 100 }], { width: 7, height: 5 });
    expect(out.length % 2).toBe(0);
    const chunks = webpChunks(out);
    expect(chunks[0]!.payload[0]).toBe(0b1_0010);
    expect(chunks.filter((c) => c.fourcc === "ANMF")).toHaveLength(2);
  });

  it("refuses a frame of another size and a file that is not WebP", () => {
    expect(() => animatedWebp([{ webp: stillWebp("32x16", "testsrc"), durationMs: 100 }], { width: 33, height: 17 })).toThrow("frame 0 is 32x16, not 33x17");
    expect(() => webpChunks(new TextEncoder().encode("RIFF\u0004\u0000\u0000\u0000WAVE"))).toThrow("not a WebP file");
  });

  it("spreads frame durations so they add up to the clip's length", () => {
    expect(frameDurations(3, 15)).toEqual([67, 66, 67]);
    expect(frameDurations(15, 15).reduce((a, b) => a + b)).toBe(1000);
    expect(frameDurations(4, 10)).toEqual([100, 100, 100, 100]);
  });
});
