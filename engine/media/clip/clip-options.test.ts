import { describe, expect, it } from "vitest";
import { formatClipTime, parseClipTime } from "#common/clip-time.ts";
import { optionsClaim, optionsFromClaim, parseMediaOptions } from "../options/media-options.ts";

describe("clip times", () => {
  it("reads seconds and clock readings", () => {
    expect(parseClipTime("90")).toBe(90);
    expect(parseClipTime("90.5")).toBe(90.5);
    expect(parseClipTime(90.25)).toBe(90.25);
    expect(parseClipTime("1:30")).toBe(90);
    expect(parseClipTime("0:05.5")).toBe(5.5);
    expect(parseClipTime("1:02:03")).toBe(3723);
    expect(parseClipTime(" 1:02:03.25 ")).toBe(3723.25);
    expect(parseClipTime("100:00:00")).toBe(360_000);
  });

  it("refuses what is not a time", () => {
    for (const bad of ["", "abc", "-5", "1:5", "1:60", "1:60:00", "1:2:03", "1:02:03:04", "1e3", "0x10", "1,5", "101:00:00", -1, Number.NaN, Infinity]) {
      expect(parseClipTime(bad)).toBeNull();
    }
  });

  it("shows a time back as the picker takes it", () => {
    expect(formatClipTime(3723)).toBe("1:02:03");
    expect(formatClipTime(90)).toBe("1:30");
    expect(formatClipTime(5.5)).toBe("0:05.5");
    for (const s of [0, 59.999, 3600, 3723.25]) expect(parseClipTime(formatClipTime(s))).toBe(s);
    expect(formatClipTime(59.9996)).toBe("1:00");
  });
});

describe("start, end and exact in the media options", () => {
  it("parse from JSON and from a query, a clip only when a bound is given", () => {
    expect(parseMediaOptions({ start: "1:02:03", end: 3733 })).toEqual({ tags: true, start: 3723, end: 3733 });
    expect(parseMediaOptions({ start: "10", exact: "true" })).toEqual({ tags: true, start: 10, exact: true });
    expect(parseMediaOptions({ end: "0:30", exact: "1" })).toEqual({ tags: true, end: 30, exact: true });
    // exact alone cuts nothing: the whole file, as without it
    expect(parseMediaOptions({ exact: true })).toEqual({ tags: true });
    // an empty field (a picker's untouched box) is no bound
    expect(parseMediaOptions({ start: "", end: "" })).toEqual({ tags: true });
  });

  it("a malformed time is a 400 naming the field; a clip that ends before it starts is a 422", () => {
    expect(() => parseMediaOptions({ start: "soon" })).toThrow(expect.objectContaining({ code: "request.invalid", status: 400, message: '"start" must be a time in seconds or h:mm:ss.' }));
    expect(() => parseMediaOptions({ end: true })).toThrow(expect.objectContaining({ code: "request.invalid", status: 400, message: '"end" must be a time in seconds or h:mm:ss.' }));
    expect(() => parseMediaOptions({ exact: "yes" })).toThrow(expect.objectContaining({ code: "request.invalid", message: '"exact" must be true or false.' }));
    expect(() => parseMediaOptions({ start: 20, end: 10 })).toThrow(expect.objectContaining({ code: "clip.out_of_range", status: 422 }));
  });

  it("travel in a signed link's claim in milliseconds and come back the same", () => {
    for (const options of [
      { tags: true, start: 3723.25, end: 3733 },
      { tags: false, start: 0.5, exact: true as const },
      { tags: true, end: 30 },
    ]) {
      expect(optionsFromClaim(JSON.parse(JSON.stringify(optionsClaim(options))))).toEqual(options);
    }
    expect(optionsClaim({ tags: true, start: 10, end: 20, exact: true })).toEqual({ s: 10_000, e: 20_000, x: 1 });
  });

  it("a claim we never write is refused", () => {
    for (const claim of [{ s: -1 }, { s: 1.5 }, { e: "10" }, { x: 1 }, { x: 2, s: 0 }, { s: 1, y: 1 }]) expect(optionsFromClaim(claim)).toBeNull();
  });
});
