import { describe, expect, it } from "vitest";
import { formatByteSize } from "./byte-units.ts";

describe("one unit for sizes everywhere", () => {
  it("counts decimal units, as the format card always did", () => {
    expect(formatByteSize(0)).toBe("0 B");
    expect(formatByteSize(999)).toBe("999 B");
    expect(formatByteSize(1500)).toBe("1.5 KB");
    expect(formatByteSize(31_000_000)).toBe("31.0 MB");
    expect(formatByteSize(250_000_000)).toBe("250 MB");
    expect(formatByteSize(999_960)).toBe("1.0 MB");
    expect(formatByteSize(5_368_709_127)).toBe("5.4 GB");
    expect(formatByteSize(84_200_000, true)).toBe("~84.2 MB");
    expect(formatByteSize(-1)).toBe("0 B");
    expect(formatByteSize(Number.NaN)).toBe("0 B");
  });
});
