import { describe, expect, it } from "vitest";
import { isEngineError } from "../../errors.ts";
import { optionsClaim, optionsFromClaim, parseMediaOptions } from "../options/media-options.ts";
import { cutAudioFilter, cutChapters, sponsorChapters } from "./plan-sponsorblock.ts";

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return isEngineError(err) ? err.code : String(err);
  }
  return "none";
};

describe("the sponsorblock option", () => {
  it("reads the JSON object and the query form alike, each category once in the catalogue's order", () => {
    expect(parseMediaOptions({ sponsorblock: { categories: ["intro", "sponsor", "intro"], action: "chapters" } }).sponsorblock).toEqual({ categories: ["sponsor", "intro"], action: "chapters" });
    expect(parseMediaOptions({ sponsorblock: "outro, sponsor", sponsorblockAction: "cut" }).sponsorblock).toEqual({ categories: ["sponsor", "outro"], action: "cut" });
    expect(parseMediaOptions({ sponsorblock: "selfpromo" }).sponsorblock).toEqual({ categories: ["selfpromo"], action: "cut" });
    expect(parseMediaOptions({ sponsorblock: "" }).sponsorblock).toBeUndefined();
  });

  it("refuses unknown categories, actions, and an action without categories", () => {
    expect(codeOf(() => parseMediaOptions({ sponsorblock: "sponsor,filler" }))).toBe("request.invalid");
    expect(codeOf(() => parseMediaOptions({ sponsorblock: { categories: ["sponsor"], action: "mute" } }))).toBe("request.invalid");
    expect(codeOf(() => parseMediaOptions({ sponsorblock: { categories: [], action: "cut" } }))).toBe("request.invalid");
    expect(codeOf(() => parseMediaOptions({ sponsorblockAction: "cut" }))).toBe("request.invalid");
  });

  it("travels in the signed link as a short claim and comes back the same; a forged claim is refused", () => {
    const options = parseMediaOptions({ sponsorblock: { categories: ["sponsor", "interaction", "outro"], action: "chapters" } });
    const claim = optionsClaim(options);
    expect(claim).toEqual({ b: "m21" });
    expect(optionsFromClaim(JSON.parse(JSON.stringify(claim)))).toEqual(options);
    expect(optionsFromClaim({ b: "c0" })).toBeNull();
    expect(optionsFromClaim({ b: "c32" })).toBeNull();
    expect(optionsFromClaim({ b: "x1" })).toBeNull();
  });
});

describe("segments in a plan", () => {
  const own = [
    { title: "Start", start: 0, end: 10 },
    { title: "Middle", start: 10, end: 30 },
  ];

  it("as chapters: the video's own split at each merged span, named after its categories", () => {
    const chapters = sponsorChapters(
      own,
      [
        { category: "sponsor", start: 8, end: 12 },
        { category: "selfpromo", start: 11, end: 14 },
        { category: "outro", start: 28, end: 31 },
      ],
      30,
    );
    expect(chapters).toEqual([
      { title: "Start", start: 0, end: 8 },
      { title: "Sponsor, Self-promotion", start: 8, end: 14 },
      { title: "Middle", start: 14, end: 28 },
      { title: "Outro", start: 28, end: 30 },
    ]);
  });

  it("cut: chapters move back by what was cut before them, those wholly cut are gone", () => {
    expect(
      cutChapters(
        [...own, { title: "End", start: 30, end: 32 }],
        [
          { start: 5, end: 8 },
          { start: 29, end: 33 },
        ],
      ),
    ).toEqual([
      { title: "Start", start: 0, end: 7 },
      { title: "Middle", start: 7, end: 26 },
    ]);
  });

  it("cut: the audio filter keeps what lies outside every span, a span from 0 taking the priming too", () => {
    expect(cutAudioFilter([{ start: 0, end: 2 }, { start: 5, end: 8.5 }])).toBe(
      "asetnsamples=n=64:p=0,aselect='not(lt(t,2.000)+gte(t,5.000)*lt(t,8.500))',asetpts=N/SR/TB",
    );
  });
});
