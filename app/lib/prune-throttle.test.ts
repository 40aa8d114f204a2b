import { describe, expect, it } from "vitest";
import { pruneThrottle } from "./prune-throttle.ts";

describe("pruneThrottle", () => {
  it("runs once per interval per handle, and always when forced", () => {
    const due = pruneThrottle(1000);
    const a = {};
    const b = {};
    const at = (ms: number) => new Date(ms);
    expect(due(a, at(0))).toBe(true);
    expect(due(a, at(999))).toBe(false);
    expect(due(b, at(999))).toBe(true);
    expect(due(a, at(999), true)).toBe(true);
    expect(due(a, at(1500))).toBe(false);
    expect(due(a, at(1999))).toBe(true);
  });
});
