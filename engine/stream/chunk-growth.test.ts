import { describe, expect, it } from "vitest";
import { createChunkGrowth, GROWN_CHUNK_CEILING } from "./chunk-growth.ts";

const MiB = 1024 * 1024;

describe("chunk growth", () => {
  it("starts at the configured size and doubles after each whole chunk, up to the ceiling", () => {
    const g = createChunkGrowth(8 * MiB);
    const sizes = [g.bytes];
    for (let i = 0; i < 5; i++) {
      g.completed();
      sizes.push(g.bytes);
    }
    expect(sizes).toEqual([8, 16, 32, 64, 64, 64].map((n) => n * MiB));
    expect(GROWN_CHUNK_CEILING).toBe(64 * MiB);
  });

  it("keeps a stream's own limit, and a configured size above it is lowered to it", () => {
    const g = createChunkGrowth(8 * MiB, 10 * MiB);
    g.completed();
    g.completed();
    expect(g.bytes).toBe(10 * MiB);
    expect(createChunkGrowth(16 * MiB, 10 * MiB).bytes).toBe(10 * MiB);
  });

  it("after a cut starts again at the configured size and never asks for as much as the cut chunk", () => {
    const g = createChunkGrowth(8 * MiB);
    g.completed();
    g.completed();
    expect(g.bytes).toBe(32 * MiB);
    g.cut(32 * MiB);
    expect(g.bytes).toBe(8 * MiB);
    for (let i = 0; i < 4; i++) g.completed();
    expect(g.bytes).toBe(16 * MiB);
  });

  it("a cut of a chunk no longer than the configured size (or of unknown size) leaves the ceiling alone", () => {
    const g = createChunkGrowth(8 * MiB);
    g.completed();
    g.cut(512 * 1024);
    g.cut(null);
    expect(g.bytes).toBe(8 * MiB);
    for (let i = 0; i < 4; i++) g.completed();
    expect(g.bytes).toBe(64 * MiB);
  });
});
