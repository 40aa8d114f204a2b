import { describe, expect, it } from "vitest";
import { convertCase, countText, findAndReplace, formatReadingTime, slugify, transformLines } from "./text-transforms.ts";

describe("countText", () => {
  it("counts characters, words, lines and sentences of a short text", () => {
    expect(countText("Hello world. How are you?\nFine, thanks!")).toEqual({
      characters: 39,
      charactersNoSpaces: 33,
      words: 7,
      lines: 2,
      sentences: 3,
      readingSeconds: 3,
    });
  });
  it("counts an emoji or an accented letter as one character", () => {
    expect(countText("👍🏽 café").characters).toBe(6);
    expect(countText("e\u0301").characters).toBe(1);
  });
  it("gives zeros for an empty text", () => {
    expect(countText("")).toEqual({ characters: 0, charactersNoSpaces: 0, words: 0, lines: 0, sentences: 0, readingSeconds: 0 });
  });
  it("estimates reading time at 200 words a minute", () => {
    expect(countText(Array(450).fill("word").join(" ")).readingSeconds).toBe(135);
    expect(formatReadingTime(135)).toBe("2 min 15 sec");
    expect(formatReadingTime(45)).toBe("45 sec");
    expect(formatReadingTime(120)).toBe("2 min");
  });
});

describe("convertCase", () => {
  const text = "the QUICK brown fox. jumps over XMLHttpRequest!";
  it.each([
    ["upper", "THE QUICK BROWN FOX. JUMPS OVER XMLHTTPREQUEST!"],
    ["lower", "the quick brown fox. jumps over xmlhttprequest!"],
    ["title", "The Quick Brown Fox. Jumps Over Xmlhttprequest!"],
    ["sentence", "The quick brown fox. Jumps over xmlhttprequest!"],
    ["camel", "theQuickBrownFoxJumpsOverXmlHttpRequest"],
    ["snake", "the_quick_brown_fox_jumps_over_xml_http_request"],
    ["kebab", "the-quick-brown-fox-jumps-over-xml-http-request"],
  ] as const)("%s", (style, expected) => {
    expect(convertCase(text, style)).toBe(expected);
  });
  it("splits existing identifiers", () => {
    expect(convertCase("userId_v2-final", "snake")).toBe("user_id_v2_final");
    expect(convertCase("my-video file", "camel")).toBe("myVideoFile");
  });
});

describe("slugify", () => {
  it("folds accents and joins words with single hyphens", () => {
    expect(slugify("  Crème Brûlée: 10 Best Recipes!! ")).toBe("creme-brulee-10-best-recipes");
    expect(slugify("Straße & Größe")).toBe("strasse-grosse");
    expect(slugify("日本語")).toBe("");
  });
});

describe("findAndReplace", () => {
  it("replaces plain text literally, case-insensitive when asked", () => {
    expect(findAndReplace("a.b A.B a-b", "a.b", "$&x", { regex: false, caseSensitive: false })).toEqual({ ok: true, text: "$&x $&x a-b", count: 2 });
    expect(findAndReplace("a.b A.B", "a.b", "c", { regex: false, caseSensitive: true })).toEqual({ ok: true, text: "c A.B", count: 1 });
  });
  it("supports regular expressions with groups", () => {
    expect(findAndReplace("2024-01-31 and 2025-12-01", "(\\d{4})-(\\d{2})-(\\d{2})", "$3/$2/$1", { regex: true, caseSensitive: true })).toEqual({
      ok: true,
      text: "31/01/2024 and 01/12/2025",
      count: 2,
    });
  });
  it("explains a bad pattern instead of throwing", () => {
    const r = findAndReplace("abc", "(unclosed", "", { regex: true, caseSensitive: true });
    expect(r).toEqual({ ok: false, message: "Invalid regular expression: /(unclosed/gu: Unterminated group" });
  });
  it("asks for a search text", () => {
    expect(findAndReplace("abc", "", "x", { regex: false, caseSensitive: true })).toEqual({ ok: false, message: "Enter the text to find." });
  });
});

describe("transformLines", () => {
  const text = "banana\n  apple \nCherry\nbanana\n\nitem 10\nitem 2";
  it("sorts naturally, dedupes, trims and drops empty lines", () => {
    expect(transformLines(text, "sort-asc")).toBe("\n  apple \nbanana\nbanana\nCherry\nitem 2\nitem 10");
    expect(transformLines(text, "dedupe")).toBe("banana\n  apple \nCherry\n\nitem 10\nitem 2");
    expect(transformLines(text, "trim")).toBe("banana\napple\nCherry\nbanana\n\nitem 10\nitem 2");
    expect(transformLines(text, "remove-empty")).toBe("banana\n  apple \nCherry\nbanana\nitem 10\nitem 2");
    expect(transformLines("a\nb\nc", "reverse")).toBe("c\nb\na");
    expect(transformLines("a\r\nc\r\nb", "sort-desc")).toBe("c\nb\na");
  });
});
