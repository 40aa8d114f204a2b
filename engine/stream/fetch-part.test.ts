import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { fetchPart, partLength } from "./fetch-part.ts";
import type { OutboundOpen, OutboundResponse } from "../outbound/outbound-fetch.ts";
import { createSingleFlightRefresh } from "./single-flight-refresh.ts";

const FILE = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

/** an answer whose body arrives in pieces of `piece` bytes, cut after `cutAfter` bytes when given */
function answer(status: number, body: Buffer, opts: { piece?: number; cutAfter?: number; headers?: Record<string, string> } = {}): OutboundResponse {
  const piece = opts.piece ?? 64;
  const pieces: Buffer[] = [];
  const limit = opts.cutAfter ?? body.length;
  for (let at = 0; at < limit; at += piece) pieces.push(body.subarray(at, Math.min(at + piece, limit)));
  const cut = opts.cutAfter !== undefined;
  // each piece its own chunk, as a socket delivers them
  const stream = Readable.from(
    (async function* () {
      yield* pieces;
      if (cut) throw new Error("connection cut");
    })(),
  );
  return { status, statusText: "", headers: new Headers(opts.headers), url: "http://origin/file", redirected: false, body: stream };
}

function part(open: OutboundOpen, range?: { start: number; end: number }) {
  return fetchPart({
    open,
    signal: new AbortController().signal,
    ref: () => ({ url: "http://origin/file", range }),
    label: "part 0",
    refresher: createSingleFlightRefresh(undefined, { max: 0 }),
    maxRetries: 2,
    retryDelayMs: 1,
    maxBytes: 1 << 20,
  });
}

describe("fetchPart", () => {
  it("gives the body as the pieces it arrived in, without joining them", async () => {
    const body = await part(async () => answer(200, FILE, { headers: { "content-length": "1000" } }));
    expect(body.length).toBe(16);
    expect(partLength(body)).toBe(1000);
    expect(Buffer.concat(body).equals(FILE)).toBe(true);
  });

  it("cuts its range out of a whole file sent by an upstream that ignores Range, across pieces", async () => {
    const body = await part(async () => answer(200, FILE), { start: 100, end: 299 });
    expect(partLength(body)).toBe(200);
    expect(Buffer.concat(body).equals(FILE.subarray(100, 300))).toBe(true);
  });

  it("resumes a cut range at its offset and joins what both attempts got, in order", async () => {
    const asked: string[] = [];
    let calls = 0;
    const open: OutboundOpen = async (_url, init) => {
      const range = (init?.headers as Record<string, string>).range!;
      asked.push(range);
      const [from, to] = /bytes=(\d+)-(\d+)/.exec(range)!.slice(1).map(Number) as [number, number];
      const slice = FILE.subarray(from, to + 1);
      const headers = { "content-range": `bytes ${from}-${to}/1000` };
      return calls++ === 0 ? answer(206, slice, { cutAfter: 150, headers }) : answer(206, slice, { headers });
    };
    const body = await part(open, { start: 200, end: 599 });
    expect(asked).toEqual(["bytes=200-599", "bytes=350-599"]);
    expect(Buffer.concat(body).equals(FILE.subarray(200, 600))).toBe(true);
  });

  it("fails a body shorter than its declared length after its retries", async () => {
    await expect(part(async () => answer(200, FILE.subarray(0, 900), { headers: { "content-length": "1000" } }))).rejects.toMatchObject({ detail: expect.stringMatching(/900 of 1000 bytes/) });
  });
});
