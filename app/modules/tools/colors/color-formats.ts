/**
 * Colour conversions for the colour tool. culori does the colour science (parsing, sRGB ↔ HSL,
 * HWB, OKLCH, WCAG luminance); this module only rounds the numbers for display. CMYK has no
 * colour-managed definition without an ICC profile, so it is the usual naive device formula on
 * sRGB (what design tools show when no print profile is chosen).
 */
import {
  converter,
  formatHex,
  modeHsl,
  modeHwb,
  modeLrgb,
  modeOklab,
  modeOklch,
  modeRgb,
  parse,
  toGamut,
  useMode,
  wcagContrast,
  type Color,
  type Rgb,
} from "culori/fn";

useMode(modeRgb);
useMode(modeLrgb);
useMode(modeHsl);
useMode(modeHwb);
useMode(modeOklab);
useMode(modeOklch);

const toRgb = converter("rgb");
const toHsl = converter("hsl");
const toHwb = converter("hwb");
const toOklch = converter("oklch");
const intoSrgb = toGamut("rgb", "oklch");

/** Rounds to `digits` decimals and drops trailing zeros ("50.0" → "50"). */
function num(n: number | undefined, digits: number): string {
  const f = 10 ** digits;
  const r = Math.round((n ?? 0) * f) / f;
  return String(Object.is(r, -0) ? 0 : r);
}

/** A colour as the tool holds it: an opaque sRGB colour, "#rrggbb". */
export type Hex = `#${string}`;

/** Any CSS colour the visitor types ("tomato", "#f80", "rgb(…)", "oklch(…)") as "#rrggbb", or null. */
export function parseToHex(input: string): Hex | null {
  const c = parse(input.trim());
  if (!c) return null;
  return formatHex(intoSrgb(c)) as Hex;
}

export interface ColorFormats {
  hex: string;
  rgb: string;
  hsl: string;
  hwb: string;
  oklch: string;
  cmyk: string;
}

export function cmykOf(rgb: Rgb): { c: number; m: number; y: number; k: number } {
  const k = 1 - Math.max(rgb.r, rgb.g, rgb.b);
  if (k >= 1) return { c: 0, m: 0, y: 0, k: 1 };
  return { c: (1 - rgb.r - k) / (1 - k), m: (1 - rgb.g - k) / (1 - k), y: (1 - rgb.b - k) / (1 - k), k };
}

/** Every notation the tool shows, as CSS Color 4 strings (CMYK in the common "cmyk(…)" form). */
export function colorFormats(hex: Hex): ColorFormats {
  const rgb = toRgb(hex)!;
  const hsl = toHsl(rgb);
  const hwb = toHwb(rgb);
  const ok = toOklch(rgb);
  const cmyk = cmykOf(rgb);
  const pct = (v: number | undefined) => `${num((v ?? 0) * 100, 1)}%`;
  const byte = (v: number) => Math.round(v * 255);
  return {
    hex,
    rgb: `rgb(${byte(rgb.r)} ${byte(rgb.g)} ${byte(rgb.b)})`,
    hsl: `hsl(${num(hsl.h, 1)} ${pct(hsl.s)} ${pct(hsl.l)})`,
    hwb: `hwb(${num(hwb.h, 1)} ${pct(hwb.w)} ${pct(hwb.b)})`,
    // an achromatic colour has no hue: CSS writes it as "none"
    oklch: `oklch(${pct(ok.l)} ${num(ok.c, 4)} ${ok.h === undefined || ok.c < 1e-4 ? "none" : num(ok.h, 2)})`,
    cmyk: `cmyk(${pct(cmyk.c)} ${pct(cmyk.m)} ${pct(cmyk.y)} ${pct(cmyk.k)})`,
  };
}

export interface ContrastResult {
  /** the exact WCAG 2 ratio */
  ratio: number;
  /** the ratio as shown: two decimals, cut (never rounded up to a pass) */
  label: string;
  aaNormal: boolean;
  aaLarge: boolean;
  aaaNormal: boolean;
  aaaLarge: boolean;
}

/** WCAG 2.2 contrast of two colours (1.4.3 and 1.4.6 thresholds). */
export function contrast(a: Hex, b: Hex): ContrastResult {
  const ratio = wcagContrast(a, b);
  return {
    ratio,
    label: `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`,
    aaNormal: ratio >= 4.5,
    aaLarge: ratio >= 3,
    aaaNormal: ratio >= 7,
    aaaLarge: ratio >= 4.5,
  };
}

function rotateHue(hex: Hex, degrees: number): Hex {
  const hsl = toHsl(hex)!;
  return formatHex({ ...hsl, h: (((hsl.h ?? 0) + degrees) % 360 + 360) % 360 } satisfies Color) as Hex;
}

export interface Palettes {
  /** nine steps from light to dark at the colour's hue and chroma (OKLCH lightness) */
  shades: Hex[];
  complementary: Hex[];
  analogous: Hex[];
  triadic: Hex[];
}

/** The colour's harmonies on the HSL colour wheel and a perceptual shade ramp. */
export function palettes(hex: Hex): Palettes {
  const ok = toOklch(hex)!;
  const shades = [0.95, 0.87, 0.78, 0.69, 0.6, 0.51, 0.42, 0.33, 0.24].map(
    (l) => formatHex(intoSrgb({ mode: "oklch", l, c: ok.c, h: ok.h })) as Hex,
  );
  return {
    shades,
    complementary: [hex, rotateHue(hex, 180)],
    analogous: [rotateHue(hex, -30), hex, rotateHue(hex, 30)],
    triadic: [hex, rotateHue(hex, 120), rotateHue(hex, 240)],
  };
}

/** "#rrggbb" from 8-bit channels (a pixel of an image or the screen). */
export function hexFromBytes(r: number, g: number, b: number): Hex {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}
