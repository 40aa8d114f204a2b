import { describe, expect, it } from "vitest";
import { MAX_FILE_TITLE_LENGTH, safeFileTitle } from "./file-names.ts";

describe("safeFileTitle", () => {
  it("drops characters file systems refuse and keeps the rest readable", () => {
    expect(safeFileTitle('Lecture: Sets & Logic? <Part 12> "final" a/b\\c|d*')).toBe("Lecture Sets & Logic Part 12 final abcd");
  });
  it("collapses white space, trims, and removes leading dots", () => {
    expect(safeFileTitle("  ..hidden \t\n  file  ")).toBe("hidden file");
  });
  it("drops bidi and invisible controls so a name cannot fake its extension", () => {
    expect(safeFileTitle("Holiday\u202E4pm.exe")).toBe("Holiday4pm.exe");
    expect(safeFileTitle("A\u200B\u200DB\uFEFF")).toBe("AB");
  });
  it("keeps non-Latin text and cuts at 120 code points", () => {
    expect(safeFileTitle("日本語のタイトル！")).toBe("日本語のタイトル！");
    const long = "🎬".repeat(200);
    expect([...safeFileTitle(long)]).toHaveLength(MAX_FILE_TITLE_LENGTH);
  });
  it("returns an empty string when nothing is left", () => {
    expect(safeFileTitle("???")).toBe("");
    expect(safeFileTitle("...")).toBe("");
  });
});
