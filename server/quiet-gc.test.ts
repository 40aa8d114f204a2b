import { afterEach, describe, expect, it, vi } from "vitest";
import { collectWhenQuiet } from "./quiet-gc.ts";

describe("collectWhenQuiet", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs one collection once downloads have been quiet for the delay, however many ended", () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const ended = collectWhenQuiet({ gc, delayMs: 5000 });
    ended();
    vi.advanceTimersByTime(4000);
    ended();
    vi.advanceTimersByTime(4999);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it("keeps one timer however busy the server is, and collects only after a quiet spell", () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const noteActivity = collectWhenQuiet({ gc, delayMs: 3000 });
    // a request every 100 ms for 10 s: never quiet for 3 s
    for (let t = 0; t < 10_000; t += 100) {
      noteActivity();
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(100);
    }
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2900);
    expect(gc).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    // the next burst arms it again
    noteActivity();
    vi.advanceTimersByTime(3000);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it("does nothing without a collector (a process started without --expose-gc)", () => {
    vi.useFakeTimers();
    const ended = collectWhenQuiet({ gc: undefined });
    expect(() => {
      ended();
      vi.advanceTimersByTime(10_000);
    }).not.toThrow();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("gives the C heap's free pages back right after the collection, once per quiet spell", () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const noteActivity = collectWhenQuiet({ gc: () => calls.push("gc"), afterCollect: () => calls.push("trim"), delayMs: 1000 });
    noteActivity();
    vi.advanceTimersByTime(999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(["gc", "trim"]);
    vi.advanceTimersByTime(10_000);
    expect(calls).toEqual(["gc", "trim"]);
  });
});
