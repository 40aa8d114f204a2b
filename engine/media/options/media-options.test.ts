import { describe, expect, it } from "vitest";
import { DEFAULT_MEDIA_OPTIONS, optionsClaim, optionsFromClaim, parseMediaOptions } from "./media-options.ts";

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

describe("subtitles and chapters in the media options (issue 33 §6, §2)", () => {
  it("take subtitles from JSON and from a query, soft by default in a query", () => {
    expect(parseMediaOptions({ subtitles: { language: "de", mode: "burn" } })).toEqual({ tags: true, subtitles: { language: "de", mode: "burn" } });
    expect(parseMediaOptions({ subtitles: "pt-BR" })).toEqual({ tags: true, subtitles: { language: "pt-BR", mode: "soft" } });
    expect(parseMediaOptions({ subtitles: "fr", subtitlesMode: "burn" })).toEqual({ tags: true, subtitles: { language: "fr", mode: "burn" } });
    expect(parseMediaOptions({ subtitles: "" })).toEqual({ tags: true });
    expect(parseMediaOptions({ chapters: "split" })).toEqual({ tags: true, chapters: "split" });
    expect(parseMediaOptions({ chapters: "" })).toEqual({ tags: true });
  });

  it("refuse a malformed language, mode or chapters value with request.invalid", () => {
    const bad = [
      { subtitles: { language: "de", mode: "hard" } },
      { subtitles: { language: "de" } },
      { subtitles: "../../etc" },
      { subtitlesMode: "burn" },
      { subtitles: { language: "de", mode: "soft" }, subtitlesMode: "burn" },
      { chapters: "join" },
      { chapters: true },
    ];
    for (const input of bad) expect(() => parseMediaOptions(input)).toThrow(expect.objectContaining({ code: "request.invalid", status: 400 }));
  });

  it("travel in a signed link's claim and come back the same; a claim we never write is refused", () => {
    const options = parseMediaOptions({ subtitles: { language: "en-US", mode: "burn" }, chapters: "split" });
    expect(optionsClaim(options)).toEqual({ t: "b:en-US", c: 1 });
    expect(optionsFromClaim(optionsClaim(options))).toEqual(options);
    expect(optionsFromClaim({ t: "s:de" })).toEqual({ tags: true, subtitles: { language: "de", mode: "soft" } });
    for (const claim of [{ t: "x:de" }, { t: "s:" }, { t: "b:de;rm" }, { c: 2 }, { t: 1 }]) expect(optionsFromClaim(claim)).toBeNull();
  });
});

describe("exact with a split by chapter (docs/decisions/070)", () => {
  it("keeps exact for a split without start or end, and carries it in the link", () => {
    const options = parseMediaOptions({ chapters: "split", exact: true });
    expect(options).toEqual({ tags: true, chapters: "split", exact: true });
    expect(optionsClaim(options)).toEqual({ x: 1, c: 1 });
    expect(optionsFromClaim(optionsClaim(options))).toEqual(options);
    // without a clip or a split, exact means nothing and is neither kept nor accepted in a link
    expect(parseMediaOptions({ exact: true })).toEqual({ tags: true });
    expect(optionsFromClaim({ x: 1 })).toBeNull();
  });
});
