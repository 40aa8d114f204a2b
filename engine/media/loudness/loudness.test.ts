import { describe, expect, it } from "vitest";
import { optionsClaim, optionsFromClaim, parseMediaOptions } from "../options/media-options.ts";
import { normalizeFilter, parseLoudnormJson } from "./loudness.ts";

const STDERR = `[Parsed_loudnorm_0 @ 0x55] \n{\n\t"input_i" : "-38.01",\n\t"input_tp" : "-20.77",\n\t"input_lra" : "2.70",\n\t"input_thresh" : "-49.36",
\t"output_i" : "-14.63",\n\t"output_tp" : "-1.00",\n\t"output_lra" : "3.10",\n\t"output_thresh" : "-26.02",\n\t"normalization_type" : "dynamic",\n\t"target_offset" : "0.63"\n}\n`;

describe("loudnorm's measure", () => {
  it("is read from the JSON block at the end of ffmpeg's stderr", () => {
    expect(parseLoudnormJson(`Input #0, mov…{not json}\n${STDERR}`)).toEqual({ integrated: -38.01, truePeak: -20.77, lra: 2.7, threshold: -49.36, offset: 0.63 });
  });

  it("is nothing for silence (-inf) or no block", () => {
    expect(parseLoudnormJson(STDERR.replace('"-38.01"', '"-inf"'))).toBeNull();
    expect(parseLoudnormJson("ffmpeg said nothing useful")).toBeNull();
  });

  it("becomes a linear second pass, or a one-pass filter without it", () => {
    const measure = parseLoudnormJson(STDERR)!;
    expect(normalizeFilter(measure)).toBe(
      "loudnorm=I=-14:TP=-1.5:LRA=20:measured_I=-38.01:measured_TP=-20.77:measured_LRA=2.70:measured_thresh=-49.36:offset=0.63:linear=true:print_format=none",
    );
    expect(normalizeFilter(null)).toBe("loudnorm=I=-14:TP=-1.5:LRA=20:print_format=none");
  });
});

describe("the normalize option", () => {
  it("is parsed from JSON and query values, and round-trips through a signed link's claim", () => {
    expect(parseMediaOptions({ normalize: true }).normalize).toBe(true);
    expect(parseMediaOptions({ normalize: "1" }).normalize).toBe(true);
    expect(parseMediaOptions({ normalize: "false" }).normalize).toBeUndefined();
    expect(() => parseMediaOptions({ normalize: "loud" })).toThrow(/"normalize" must be true or false/);
    const options = parseMediaOptions({ normalize: true, tags: false });
    expect(optionsClaim(options)).toEqual({ g: 0, n: 1 });
    expect(optionsFromClaim(optionsClaim(options))).toEqual(options);
    expect(optionsFromClaim({ n: 2 })).toBeNull();
  });
});
