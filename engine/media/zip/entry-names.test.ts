import { describe, expect, it } from "vitest";
import { EntryNames, safeEntryName } from "./entry-names.ts";

describe("safe ZIP entry names", () => {
  it.each([
    ["My video.mp4", "My video.mp4"],
    ["../../etc/passwd", "_._etc_passwd"],
    ["..", "file"],
    ["/etc/cron.d/x", "_etc_cron.d_x"],
    ["C:\\Windows\\evil.exe", "C__Windows_evil.exe"],
    [".bashrc", "file.bashrc"],
    [".mp4", "file.mp4"],
    [" =1+1.mp4", "_1+1.mp4"],
    ["trailing dots and spaces. . .", "trailing dots and spaces"],
    ['a<b>c:d"e|f?g*h.mp4', "a_b_c_d_e_f_g_h.mp4"],
    ["line\nbreak\ttab\u0000nul.mp4", "line_break_tab_nul.mp4"],
    ["invoice\u202Egpj.exe", "invoice_gpj.exe"],
    ["CON.mp4", "_CON.mp4"],
    ["lpt1", "_lpt1"],
    ["=HYPERLINK(x).mp4", "_HYPERLINK(x).mp4"],
    ["-rf.mp4", "_rf.mp4"],
    ["@someone dancing.mp4", "_someone dancing.mp4"],
    ["", "file"],
    ["   .mp4", "file.mp4"],
    ["Cafe\u0301.mp4", "Café.mp4"],
    ["lone \uD800 surrogate.mp4", "lone \uFFFD surrogate.mp4"],
  ])("%j becomes %j", (wanted, safe) => {
    expect(safeEntryName(wanted)).toBe(safe);
  });

  it("caps a long name at 240 UTF-8 bytes, whole characters, extension kept", () => {
    const name = safeEntryName(`${"é".repeat(300)}.webm`);
    expect(name.endsWith("é.webm")).toBe(true);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(240);
    expect(Buffer.byteLength(name)).toBeGreaterThan(230);
    expect(name).not.toContain("\uFFFD");
  });

  it("numbers repeated names, ignoring case, around names already taken", () => {
    const names = new EntryNames();
    expect(["a.mp4", "A.MP4", "a (2).mp4", "a.mp4", "b"].map((n) => names.take(n))).toEqual(["a.mp4", "A (2).MP4", "a (2) (2).mp4", "a (3).mp4", "b"]);
  });

  it("keeps reserved names for the entry that asks for them, once", () => {
    const names = new EntryNames(["manifest.csv"]);
    expect(names.take("Manifest.csv")).toBe("Manifest (2).csv");
    expect(names.take("manifest.csv", { reserved: true })).toBe("manifest.csv");
    expect(() => names.take("manifest.csv", { reserved: true })).toThrow();
    expect(() => names.take("other.csv", { reserved: true })).toThrow();
  });

  it("stays fast for thousands of equal titles", () => {
    const names = new EntryNames();
    const started = performance.now();
    for (let i = 0; i < 20_000; i++) names.take("same.mp4");
    expect(names.take("same.mp4")).toBe("same (20001).mp4");
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
