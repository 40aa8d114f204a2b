import { describe, expect, it } from "vitest";
import { splitRange } from "./range-plan.ts";

describe("range plan", () => {
  it("cuts an inclusive range into consecutive parts, the last one shorter", () => {
    const parts = splitRange("https://cdn.example/v.mp4", 100, 349, 100);
    expect(parts.map((p) => p.range)).toEqual([
      { start: 100, end: 199 },
      { start: 200, end: 299 },
      { start: 300, end: 349 },
    ]);
    expect(new Set(parts.map((p) => p.url))).toEqual(new Set(["https://cdn.example/v.mp4"]));
  });

  it("a range smaller than a part is one part", () => {
    expect(splitRange("u", 0, 0, 1024).map((p) => p.range)).toEqual([{ start: 0, end: 0 }]);
  });
});
