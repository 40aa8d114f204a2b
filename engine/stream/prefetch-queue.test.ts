import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createPrefetchQueue } from "./prefetch-queue.ts";
import type { RangeChunk } from "./range-request.ts";

function upstream() {
  const asked: Array<[number, number]> = [];
  const bodies = new Map<number, PassThrough>();
  const request = async (start: number, last: number): Promise<RangeChunk> => {
    asked.push([start, last]);
    const body = new PassThrough();
    bodies.set(start, body);
    return { body, start, last, expect: last - start + 1, skip: 0, full: false };
  };
  return { request, asked, bodies };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("prefetch queue", () => {
  it("asks for the chunks after the current one, up to the depth, never past the end", () => {
    const { request, asked } = upstream();
    const q = createPrefetchQueue(request);
    q.fill(99, 349, 2, 100);
    expect(asked).toEqual([[100, 199], [200, 299]]);
    // already two waiting: nothing more
    q.fill(199, 349, 2, 100);
    expect(asked).toHaveLength(2);
    expect(q.takeAt(100)?.start).toBe(100);
    // one was taken: the next one after the last waiting, cut at the end
    q.fill(199, 349, 2, 100);
    expect(asked.at(-1)).toEqual([300, 349]);
    expect(q.nextStart()).toBe(200);
  });

  it("drops chunks that no longer follow on, destroying their bodies once they arrive", async () => {
    const { request, bodies } = upstream();
    const q = createPrefetchQueue(request);
    q.fill(99, 1000, 3, 100);
    // the next turn is at 100, as planned: taken, the others stay
    expect(q.takeAt(100)?.start).toBe(100);
    expect(q.nextStart()).toBe(200);
    // a short answer left the reader at 250: 200 starts before it, and what follows it is cut to its grid
    expect(q.takeAt(250)).toBeNull();
    await tick();
    expect(bodies.get(200)!.destroyed).toBe(true);
    expect(bodies.get(300)!.destroyed).toBe(true);
    expect(q.nextStart()).toBeNull();
    q.fill(349, 1000, 1, 100);
    expect(q.nextStart()).toBe(350);
    q.clear();
    await tick();
    expect(bodies.get(350)!.destroyed).toBe(true);
    expect(q.nextStart()).toBeNull();
  });

  it("keeps a failed prefetch from being an unhandled rejection until its turn", async () => {
    const q = createPrefetchQueue(() => Promise.reject(new Error("cut")));
    q.fill(-1, 99, 1, 100);
    await tick();
    await expect(q.takeAt(0)!.promise).rejects.toThrow("cut");
  });
});
