import { describe, expect, it } from "vitest";
import { DEFAULT_MEDIA_OPTIONS, parseMediaOptions } from "./media-options.ts";

describe("parseMediaOptions", () => {
  it("takes tags from JSON booleans and from query strings, tagged by default", () => {
    expect(parseMediaOptions({ url: "x", format: "mp3-128" })).toEqual({ tags: true });
    expect(parseMediaOptions(undefined)).toEqual(DEFAULT_MEDIA_OPTIONS);
    expect(parseMediaOptions({ tags: false })).toEqual({ tags: false });
    expect(parseMediaOptions({ tags: "false" })).toEqual({ tags: false });
    expect(parseMediaOptions({ tags: "0" })).toEqual({ tags: false });
    expect(parseMediaOptions({ tags: "1" })).toEqual({ tags: true });
  });

  it("refuses a value that is not a boolean with request.invalid naming the field", () => {
    for (const tags of ["no", "", 1, null, ["false"], { a: 1 }]) {
      expect(() => parseMediaOptions({ tags })).toThrow(expect.objectContaining({ code: "request.invalid", status: 400, message: '"tags" must be true or false.' }));
    }
  });
});
