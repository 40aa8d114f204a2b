import { Readable } from "node:stream";
import type { Logger } from "pino";
import { EngineError, isEngineError } from "../errors.ts";
import type { SegmentRef } from "../types.ts";
import type { OutboundOpen } from "./outbound-fetch.ts";
import { readAll } from "./outbound-fetch.ts";

/**
 * HLS/DASH segments (init segment first, then media segments, byte ranges honoured) fetched with
 * bounded parallelism and emitted strictly in order. Why parallel: per-request latency dominates
 * segment downloads; a few requests in flight hide it. Memory is bounded by `concurrency`
 * segments: the next fetch starts only when the consumer takes a segment.
 */
export interface SegmentReaderOptions {
  open: OutboundOpen;
  init?: SegmentRef;
  segments: SegmentRef[];
  concurrency: number;
  /** attempts per segment after a failure (default 3) */
  maxRetries?: number;
  retryDelayMs?: number;
  /** a single segment larger than this fails the download (bounded memory); default 64 MiB */
  maxSegmentBytes?: number;
  logger?: Logger;
  signal?: AbortSignal;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new EngineError("download.failed", { detail: "aborted" }));
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new EngineError("download.failed", { detail: "aborted" }));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export function openSegmentSource(opts: SegmentReaderOptions): Readable {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) controller.abort(opts.signal.reason);
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const concurrency = Math.max(1, Math.floor(opts.concurrency));
  const maxRetries = opts.maxRetries ?? 3;
  const retryDelayMs = opts.retryDelayMs ?? 200;
  const maxBytes = opts.maxSegmentBytes ?? 64 * 1024 * 1024;
  const all = opts.init ? [opts.init, ...opts.segments] : [...opts.segments];

  async function fetchSegment(ref: SegmentRef, index: number): Promise<Buffer> {
    for (let attempt = 0; ; attempt++) {
      try {
        const headers: Record<string, string> = {};
        if (ref.range) headers.range = `bytes=${ref.range.start}-${ref.range.end}`;
        const res = await opts.open(ref.url, { headers, signal: controller.signal, maxBytes });
        if (res.status !== 200 && res.status !== 206) {
          res.body.resume();
          if (res.status === 403 || res.status === 404 || res.status === 410) {
            throw new EngineError("upstream.expired", { detail: `segment ${index} answered ${res.status}` });
          }
          throw new EngineError("upstream.fetch_failed", { detail: `segment ${index} answered ${res.status}` });
        }
        let body = await readAll(res.body);
        if (ref.range) {
          const want = ref.range.end - ref.range.start + 1;
          // An upstream that ignores Range sends the whole file: cut our part out of it.
          if (res.status === 200 && body.length > want) body = body.subarray(ref.range.start, ref.range.end + 1);
          if (body.length !== want) throw new EngineError("upstream.fetch_failed", { detail: `segment ${index}: ${body.length} of ${want} bytes` });
        } else {
          const declared = Number(res.headers.get("content-length"));
          if (res.headers.has("content-length") && Number.isFinite(declared) && body.length !== declared) {
            throw new EngineError("upstream.fetch_failed", { detail: `segment ${index}: ${body.length} of ${declared} bytes` });
          }
        }
        return body;
      } catch (err) {
        if (controller.signal.aborted) throw err;
        const permanent = isEngineError(err) && (err.code === "upstream.expired" || err.code === "upstream.too_large" || err.code === "link.blocked_address");
        if (permanent || attempt >= maxRetries) {
          throw isEngineError(err) ? err : new EngineError("upstream.fetch_failed", { cause: err, detail: `segment ${index}: ${(err as Error).message}` });
        }
        opts.logger?.warn({ segment: index, attempt: attempt + 1, err: (err as Error).message }, "segment failed; retrying");
        await wait(retryDelayMs * 2 ** attempt, controller.signal);
      }
    }
  }

  async function* inOrder(): AsyncGenerator<Buffer> {
    const inflight: Promise<Buffer>[] = [];
    let next = 0;
    const fill = () => {
      while (next < all.length && inflight.length < concurrency) {
        const p = fetchSegment(all[next]!, next);
        // observed when its turn comes; this only keeps a failure ahead of its turn from being "unhandled"
        p.catch(() => undefined);
        inflight.push(p);
        next++;
      }
    };
    fill();
    while (inflight.length > 0) {
      const buf = await inflight.shift()!;
      fill();
      if (buf.length > 0) yield buf;
    }
  }

  const stream = Readable.from(inOrder(), { objectMode: false, highWaterMark: 64 * 1024 });
  stream.once("close", () => {
    opts.signal?.removeEventListener("abort", onOuterAbort);
    controller.abort();
  });
  return stream;
}
