import { describe, expect, it } from "vitest";
import { cannotEncodeMessage, findTarget, outputSize } from "./convert-targets.ts";

describe("outputSize", () => {
  it("scales down to the chosen height, keeping the aspect ratio with even widths", () => {
    expect(outputSize({ width: 1920, height: 1080 }, "720")).toEqual({ width: 1280, height: 720 });
    expect(outputSize({ width: 640, height: 360 }, "240")).toEqual({ width: 426, height: 240 });
  });
  it("never upscales", () => {
    expect(outputSize({ width: 640, height: 360 }, "1080")).toEqual({ width: 640, height: 360 });
    expect(outputSize({ width: 640, height: 360 }, "source")).toEqual({ width: 640, height: 360 });
  });
});

it("names what the browser lacks", () => {
  expect(cannotEncodeMessage(findTarget("m4a")!)).toMatch(/^This browser cannot encode AAC audio, so M4A audio \(AAC\) is not available here\./);
});
