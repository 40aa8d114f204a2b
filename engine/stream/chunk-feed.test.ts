import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ByteCursor } from "./byte-cursor.ts";
import { ChunkFeed, type ChunkFeedEvents } from "./chunk-feed.ts";
import type { RangeChunk } from "./range-request.ts";

function setup(opts: { pos: number; end: number | null; accept?: () => boolean }) {
  const pushed: Buffer[] = [];
  const seen: string[] = [];
  const cursor = new ByteCursor(opts.pos, { end: opts.end });
  const events: ChunkFeedEvents = {
    push: (buf) => {
      pushed.push(buf);
      return opts.accept ? opts.accept() : true;
    },
    progressed: () => seen.push("progressed"),
    complete: () => seen.push("complete"),
    ended: (c) => seen.push(`ended ${cursor.endedEarly(c.expect) ? "early" : "whole"}`),
    failed: (_c, err) => seen.push(`failed: ${err.message}`),
  };
  const feed = new ChunkFeed(cursor, events);
  const chunk = (start: number, last: number | null, skip = 0): RangeChunk & { body: PassThrough } => ({ body: new PassThrough(), start, last, expect: last === null ? null : last - start + 1, skip, full: skip > 0 });
  const tick = () => new Promise((r) => setImmediate(r));
  return { pushed, seen, feed, chunk, cursor, tick };
}

describe("chunk feed", () => {
  it("skips to the offset and stops at the end, even when the upstream sends more", async () => {
    const t = setup({ pos: 3, end: 6 });
    const c = t.chunk(3, null, 3); // an upstream that ignored Range: the body starts at byte 0
    t.feed.attach(c);
    c.body.write(Buffer.from("0123456789"));
    await t.tick();
    expect(Buffer.concat(t.pushed).toString()).toBe("3456");
    expect(t.seen).toEqual(["progressed", "complete"]);
    expect(c.body.destroyed).toBe(true);
    expect(t.feed.current).toBeNull();
  });

  it("pauses the body while the consumer is full and lets it flow again on resume", async () => {
    let room = false;
    const t = setup({ pos: 0, end: 99, accept: () => room });
    const c = t.chunk(0, 99);
    t.feed.attach(c);
    c.body.write(Buffer.alloc(10));
    await t.tick();
    expect(c.body.isPaused()).toBe(true);
    c.body.write(Buffer.alloc(10));
    await t.tick();
    expect(t.pushed.length).toBe(1);
    room = true;
    t.feed.resume();
    await t.tick();
    expect(t.pushed.length).toBe(2);
    expect(t.feed.rate?.everPaused).toBe(true);
  });

  it("tells a whole chunk from one that ended early, and a close without an end from both", async () => {
    const tick = () => new Promise((r) => setImmediate(r));
    /** a chunk of [0, last] attached and `deliver` run on its body: what the feed said last, and where the cursor stands */
    const lastWord = async (last: number, deliver: (body: PassThrough) => Promise<void> | void) => {
      const t = setup({ pos: 0, end: 9 });
      const c = t.chunk(0, last);
      t.feed.attach(c);
      await deliver(c.body);
      await tick();
      return { said: t.seen.at(-1), pos: t.cursor.pos };
    };
    expect(await lastWord(4, (body) => void body.end(Buffer.alloc(5)))).toEqual({ said: "ended whole", pos: 5 });
    expect(await lastWord(9, (body) => void body.end(Buffer.alloc(4)))).toEqual({ said: "ended early", pos: 4 });
    const cut = async (body: PassThrough) => {
      body.write(Buffer.alloc(2));
      await tick();
      body.destroy();
    };
    expect(await lastWord(9, cut)).toEqual({ said: "failed: upstream closed the connection", pos: 2 });
  });

  it("a chunk let go says nothing more, and parallel parts are not measured", async () => {
    const t = setup({ pos: 0, end: 99 });
    const c = t.chunk(0, 99);
    t.feed.attach(c, false);
    expect(t.feed.rate).toBeNull();
    expect(t.feed.detach(true)).toBe(c);
    expect(c.body.destroyed).toBe(true);
    await t.tick();
    expect(t.seen).toEqual([]);
  });
});
