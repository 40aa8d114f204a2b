/**
 * One Range request of a direct upstream file and what its answer means: a 206 must start at the
 * byte asked for; a 200 means the upstream ignores Range (the body is the whole file, from byte
 * 0); a 416 at or past the end is an empty tail; a 403 goes to the download's refusal ladder
 * (smaller ranges, refusal-ladder.ts) and asks for a fresh URL (once for every request in flight). Each answer teaches the shared target the file's length,
 * and so where the range ends, and its content type.
 */
import type { Readable } from "node:stream";
import { EngineError } from "../errors.ts";
import type { OutboundOpen } from "../outbound/outbound-fetch.ts";
import type { RefusalLadder } from "./refusal-ladder.ts";
import type { SingleFlightRefresh } from "./single-flight-refresh.ts";

/** What the requests of one reader share, and learn from each answer. */
export interface RangeTarget {
  /** current URL (replaced when an expired one is refreshed) */
  url: string;
  /** last byte wanted, inclusive (null until the upstream says the length) */
  end: number | null;
  /** whole length of the resource, when the upstream said */
  total: number | null;
  contentType: string | null;
}

/** One upstream response covering [start, last] (last = null: until the resource ends). */
export interface RangeChunk {
  body: Readable;
  start: number;
  last: number | null;
  /** bytes the body should carry from `start` on (null = unknown) */
  expect: number | null;
  /** bytes to drop first (an upstream that ignores Range sends from byte 0) */
  skip: number;
  /** the upstream ignored Range: this body runs to the end of the resource */
  full: boolean;
}

export interface RangeRequester {
  open: OutboundOpen;
  target: RangeTarget;
  /** bytes per request when `until` is not given */
  chunkBytes: number;
  /** refreshes `target.url` after a 403; absent: a 403 is final */
  refresher?: SingleFlightRefresh;
  /** the download's answer to a 403 (smaller ranges first) and its budgets; absent: refresh, then fail */
  refusals?: RefusalLadder;
  headers?: Record<string, string>;
  signal: AbortSignal;
}

const CONTENT_RANGE = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i;
const noop = () => undefined;

/** Requests [start, until] (until: a chunk's worth, within the end); the body is left paused for its turn. */
export async function requestRange(r: RangeRequester, start: number, until?: number, urgent = true): Promise<RangeChunk> {
  const t = r.target;
  for (;;) {
    const wanted = until ?? (t.end !== null ? Math.min(t.end, start + r.chunkBytes - 1) : start + r.chunkBytes - 1);
    // once the download was refused for asking too much, no request asks for more than a piece
    const last = r.refusals ? Math.min(wanted, start + r.refusals.pieceBytes - 1) : wanted;
    const generation = r.refresher?.generation ?? 0;
    const res = await r.open(t.url, { headers: { ...r.headers, range: `bytes=${start}-${last}` }, signal: r.signal, urgent });
    // late errors from a parked or abandoned body must not crash the process
    res.body.on("error", noop);
    if (res.status === 403 && (r.refresher || r.refusals)) {
      res.body.resume();
      if (r.refusals?.refused(t.url, last - start + 1, start)) continue;
      if (r.refresher && (await r.refresher.refresh(generation))) continue;
      if (r.refusals) throw new EngineError("upstream.refused", { detail: `upstream answered 403 at offset ${start}; no way round it is left` });
    }
    if (res.status === 206) {
      const m = CONTENT_RANGE.exec(res.headers.get("content-range") ?? "");
      if (!m || Number(m[1]) !== start) {
        res.body.destroy();
        throw new EngineError("upstream.fetch_failed", { detail: `bad Content-Range ${res.headers.get("content-range")} for offset ${start}` });
      }
      if (m[3] !== "*") t.total = Number(m[3]);
      if (t.end === null && t.total !== null) t.end = t.total - 1;
      t.contentType ??= res.headers.get("content-type");
      return { body: res.body, start, last: Number(m[2]), expect: Number(m[2]) - start + 1, skip: 0, full: false };
    }
    if (res.status === 200) {
      // The upstream ignores Range: the body is the whole resource; skip to our offset.
      const length = Number(res.headers.get("content-length"));
      if (Number.isFinite(length) && res.headers.has("content-length")) {
        t.total = length;
        if (t.end === null || t.end > t.total - 1) t.end = t.total - 1;
      }
      t.contentType ??= res.headers.get("content-type");
      return { body: res.body, start, last: t.end, expect: t.end !== null ? t.end - start + 1 : null, skip: start, full: true };
    }
    res.body.resume();
    if (res.status === 416 && (t.total === null || start >= t.total)) {
      return { body: res.body, start, last: null, expect: 0, skip: 0, full: false };
    }
    if (res.status === 403 || res.status === 404 || res.status === 410) {
      throw new EngineError("upstream.expired", { detail: `upstream answered ${res.status} at offset ${start}` });
    }
    throw new EngineError("upstream.fetch_failed", { detail: `upstream answered ${res.status} at offset ${start}` });
  }
}
