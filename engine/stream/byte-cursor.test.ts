import { describe, expect, it } from "vitest";
import { ByteCursor } from "./byte-cursor.ts";

const bytes = (from: number, n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (from + i) % 256));

describe("ByteCursor", () => {
  it("skips what an upstream sent before the offset asked, across pieces, and moves past what it hands on", () => {
    const cursor = new ByteCursor(100, { end: null });
    cursor.begin(30);
    expect(cursor.take(bytes(70, 20))).toBeNull();
    expect(cursor.take(bytes(90, 20))).toEqual(bytes(100, 10));
    expect(cursor.pos).toBe(110);
    expect(cursor.received).toBe(10);
  });

  it("hands on nothing past the last byte wanted, and says when all of it arrived", () => {
    const target = { end: 149 };
    const cursor = new ByteCursor(100, target);
    cursor.begin(0);
    expect(cursor.take(bytes(100, 40))).toEqual(bytes(100, 40));
    expect(cursor.complete).toBe(false);
    expect(cursor.take(bytes(140, 40))).toEqual(bytes(140, 10));
    expect(cursor.complete).toBe(true);
    expect(cursor.take(bytes(180, 5))).toEqual(Buffer.alloc(0));
    expect(cursor.pos).toBe(150);
  });

  it("reads the last byte wanted live: a size learned from the first answer applies to the next piece", () => {
    const target: { end: number | null } = { end: null };
    const cursor = new ByteCursor(0, target);
    cursor.begin(0);
    cursor.take(bytes(0, 10));
    target.end = 14;
    expect(cursor.take(bytes(10, 10))?.length).toBe(5);
    expect(cursor.complete).toBe(true);
  });

  it("a chunk that ended before the bytes it promised ended early; a new chunk counts from zero", () => {
    const cursor = new ByteCursor(0, { end: 999 });
    cursor.begin(0);
    cursor.take(bytes(0, 300));
    expect(cursor.endedEarly(500)).toBe(true);
    expect(cursor.endedEarly(300)).toBe(false);
    expect(cursor.endedEarly(null)).toBe(false);
    cursor.begin(0);
    expect(cursor.received).toBe(0);
    expect(cursor.pos).toBe(300);
  });
});
