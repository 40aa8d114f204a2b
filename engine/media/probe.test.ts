import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { locateMediaTools, type MediaTools } from "./ffmpeg.ts";
import { probeStream } from "./probe.ts";
import { processSpawnGate } from "./spawn-gate.ts";
import { processProbers } from "./warm-processes.ts";

let tools: MediaTools;
beforeAll(async () => {
  tools = await locateMediaTools({});
});

describe("probeStream's input", () => {
  // issue 27 finding 1: the input had no 'error' listener while the probe waited for its spawn
  // turn, and an input that failed then (a segment that 404s at once) killed the process
  it("may fail while the probe waits for its spawn turn, and rejects with its error", async () => {
    processProbers.close(); // no prober started ahead: the probe must wait for the gate
    await processSpawnGate.turn(); // the gate's turn for this loop iteration is taken
    const input = new PassThrough();
    const started = Date.now();
    const probing = probeStream(tools, input);
    expect(processSpawnGate.waiting()).toBe(1);
    input.destroy(new Error("segment answered 404"));
    await expect(probing).rejects.toThrow("segment answered 404");
    // the failure is reported at once, not after the prober's timeout
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("may end empty while the probe waits for its spawn turn", async () => {
    processProbers.close();
    await processSpawnGate.turn();
    const input = new PassThrough();
    const started = Date.now();
    const probing = probeStream(tools, input);
    input.destroy();
    await expect(probing).rejects.toMatchObject({ code: "video.no_formats" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
