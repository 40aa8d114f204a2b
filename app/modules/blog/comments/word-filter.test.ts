import { describe, expect, it } from "vitest";
import { findBlockedWord } from "./word-filter.ts";

describe("comment word filter (whole words)", () => {
  it("catches each listed word, in any case and next to punctuation", () => {
    expect(findBlockedWord("I HATE this")).toBe("hate");
    expect(findBlockedWord("free porn here")).toBe("porn");
    expect(findBlockedWord("xxx!")).toBe("xxx");
    expect(findBlockedWord("no (violence) please")).toBe("violence");
    expect(findBlockedWord("that is racist.")).toBe("racist");
    expect(findBlockedWord("sex,drugs")).toBe("sex");
  });

  it("lets harmless words that contain a listed word pass", () => {
    for (const text of ["Greetings from Essex and Sussex", "whatever works", "hatecrime is one word here", "sextant navigation", "pornography studies?", "Middlesex", "xxxl t-shirt"]) {
      expect(findBlockedWord(text), text).toBeNull();
    }
  });

  it("checks every text passed (name and comment)", () => {
    expect(findBlockedWord("Alice", "great video")).toBeNull();
    expect(findBlockedWord("hate", "great video")).toBe("hate");
  });

  it("catches full-width lookalikes after normalisation", () => {
    expect(findBlockedWord("ｈａｔｅ")).toBe("hate");
  });
});
