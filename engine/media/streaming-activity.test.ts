import { describe, expect, it } from "vitest";
import { createStreamingActivity } from "./streaming-activity.ts";

describe("streaming activity", () => {
  it("calls a listener at once when no download streams", () => {
    const activity = createStreamingActivity();
    const calls: string[] = [];
    activity.whenQuiet(() => calls.push("quiet"));
    expect(calls).toEqual(["quiet"]);
  });

  it("calls its listeners once, when the last download streaming ends, and not for an end marked twice", () => {
    const activity = createStreamingActivity();
    const endA = activity.begin();
    const endB = activity.begin();
    const calls: string[] = [];
    activity.whenQuiet(() => calls.push("first"));
    activity.whenQuiet(() => calls.push("second"));
    endA();
    endA();
    expect(activity.streaming()).toBe(1);
    expect(calls).toEqual([]);
    endB();
    expect(activity.streaming()).toBe(0);
    expect(calls).toEqual(["first", "second"]);
    activity.begin()();
    expect(calls).toEqual(["first", "second"]);
  });

  it("does not call a listener that was cancelled", () => {
    const activity = createStreamingActivity();
    const end = activity.begin();
    const calls: string[] = [];
    const cancel = activity.whenQuiet(() => calls.push("cancelled"));
    activity.whenQuiet(() => calls.push("kept"));
    cancel();
    end();
    expect(calls).toEqual(["kept"]);
  });
});
