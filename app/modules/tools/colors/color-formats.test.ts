import { describe, expect, it } from "vitest";
import { colorFormats, contrast, hexFromBytes, palettes, parseToHex } from "./color-formats.ts";

describe("colorFormats", () => {
  it("shows one colour in every notation", () => {
    expect(colorFormats("#3366cc")).toEqual({
      hex: "#3366cc",
      rgb: "rgb(51 102 204)",
      hsl: "hsl(220 60% 50%)",
      hwb: "hwb(220 20% 20%)",
      oklch: "oklch(53.2% 0.1679 262.29)",
      cmyk: "cmyk(75% 50% 0% 20%)",
    });
  });
  it("writes an achromatic colour's hue as none and pure black as K only", () => {
    expect(colorFormats("#000000")).toMatchObject({ hsl: "hsl(0 0% 0%)", oklch: "oklch(0% 0 none)", cmyk: "cmyk(0% 0% 0% 100%)" });
    expect(colorFormats("#777777")).toMatchObject({ hsl: "hsl(0 0% 46.7%)", oklch: "oklch(56.9% 0 none)", cmyk: "cmyk(0% 0% 0% 53.3%)" });
  });
});

describe("parseToHex", () => {
  it("reads CSS colour names and notations, mapping out-of-gamut colours into sRGB", () => {
    expect(parseToHex("tomato")).toBe("#ff6347");
    expect(parseToHex(" #F80 ")).toBe("#ff8800");
    expect(parseToHex("hsl(220 60% 50%)")).toBe("#3366cc");
    expect(parseToHex("oklch(70% 0.5 30)")).toBe("#ff5843");
  });
  it("returns null for anything that is not a colour", () => {
    expect(parseToHex("nope")).toBeNull();
    expect(parseToHex("#12345")).toBeNull();
  });
});

describe("contrast", () => {
  it("gives the WCAG ratio, cut to two decimals, with AA and AAA verdicts", () => {
    expect(contrast("#000000", "#ffffff")).toEqual({ ratio: 21, label: "21.00:1", aaNormal: true, aaLarge: true, aaaNormal: true, aaaLarge: true });
    const grey = contrast("#777777", "#ffffff");
    expect(grey.ratio).toBeCloseTo(4.478, 3);
    expect(grey).toMatchObject({ label: "4.47:1", aaNormal: false, aaLarge: true, aaaNormal: false, aaaLarge: false });
    expect(contrast("#767676", "#ffffff")).toMatchObject({ label: "4.54:1", aaNormal: true, aaaNormal: false, aaaLarge: true });
    expect(contrast("#ffffff", "#767676").label).toBe("4.54:1");
  });
});

describe("palettes", () => {
  it("builds harmonies on the colour wheel and a light-to-dark shade ramp", () => {
    const p = palettes("#3366cc");
    expect(p.complementary).toEqual(["#3366cc", "#cc9933"]);
    expect(p.analogous).toEqual(["#33b3cc", "#3366cc", "#4d33cc"]);
    expect(p.triadic).toEqual(["#3366cc", "#cc3366", "#66cc33"]);
    expect(p.shades).toHaveLength(9);
    expect(p.shades[0]).toBe("#dfefff");
    expect(p.shades[8]).toBe("#00016c");
  });
});

it("hexFromBytes pads each channel", () => {
  expect(hexFromBytes(0, 15, 255)).toBe("#000fff");
});
