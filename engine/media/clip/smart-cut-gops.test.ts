import { PassThrough } from "node:stream";
import { setImmediate as tick } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import type { FfmpegRun } from "../ffmpeg.ts";
import { CutOutput } from "./smart-cut-gops.ts";

/** A stand-in for the copy ffmpeg: its stdout (written by the test), the extra outputs asked for, and a shutdown that is counted. */
function fakeCopy(extraOutputs: number) {
  const output = new PassThrough({ highWaterMark: 16 });
  const shutdown = vi.fn<() => void>();
  const run: FfmpegRun = { pid: 1, output, outputs: Array.from({ length: extraOutputs }, () => new PassThrough()), exited: new Promise(() => undefined), shutdown };
  return { run, output, shutdown };
}

describe("CutOutput, when the cut is done", () => {
  it("stops a copy that feeds nothing else: it may still be reading past the clip's end", async () => {
    const copy = fakeCopy(0);
    const cut = new CutOutput(copy.run, new AbortController().signal);
    cut.finish(Promise.resolve(), () => undefined);
    await tick();
    expect(copy.shutdown).toHaveBeenCalledTimes(1);
  });

  it("lets a copy that also feeds the audio pipe run to its own end, its video drained so it never blocks on a full stdout", async () => {
    const copy = fakeCopy(1);
    const cut = new CutOutput(copy.run, new AbortController().signal);
    const encoder = fakeCopy(0);
    cut.encoders.add(encoder.run);
    cut.finish(Promise.resolve(), () => undefined);
    await tick();
    expect(copy.shutdown).not.toHaveBeenCalled();
    // the video the copy still writes past the clip's end is read and dropped: far more than its buffer holds goes through
    for (let i = 0; i < 100; i++) {
      copy.output.write(Buffer.alloc(64));
      await tick();
    }
    expect([copy.output.readableLength, copy.output.writableLength]).toEqual([0, 0]);
    // the mux has read the parts: the encoders go, the copy still ends on its own
    cut.out.resume();
    await new Promise((resolve) => cut.out.once("close", resolve));
    expect(encoder.shutdown).toHaveBeenCalledTimes(1);
    expect(copy.shutdown).not.toHaveBeenCalled();
  });

  it("stops the copy and the encoders when the visitor leaves, whatever the copy feeds", async () => {
    const copy = fakeCopy(1);
    const leave = new AbortController();
    const cut = new CutOutput(copy.run, leave.signal);
    const encoder = fakeCopy(0);
    cut.encoders.add(encoder.run);
    leave.abort();
    expect(copy.shutdown).toHaveBeenCalledTimes(1);
    expect(encoder.shutdown).toHaveBeenCalledTimes(1);
  });
});
