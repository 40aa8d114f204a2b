import { abortableDelay } from "./abortable-delay.ts";
import { setMaxListeners } from "node:events";
import { Readable } from "node:stream";
import type { Logger } from "pino";
import { EngineError, isEngineError } from "../errors.ts";
import type { SegmentRef } from "../types.ts";
import type { OutboundOpen } from "./outbound-fetch.ts";
import { readAll } from "./outbound-fetch.ts";

/**
 * HLS/DASH segments (init segment first, then media segments, byte ranges honoured) fetched with
 * bounded parallelism and emitted strictly in order. Why parallel: per-request latency dominates
 * segment downloads; a few requests in flight hide it. A finished request frees its slot at once
 * (a slow segment at the head does not idle the others), and fetching starts before the consumer
 * (ffmpeg, still starting) asks; both only within a window: at most `concurrency` requests in
 * flight and at most `concurrency + ahead` segments fetched but not yet handed on, so memory is
 * bounded by the window, whatever the number of segments.
 */
export interface SegmentReaderOptions {
  open: OutboundOpen;
  init?: SegmentRef;
  segments: SegmentRef[];
  concurrency: number;
  /** segments that may wait, fetched, beyond the ones in flight (default: `concurrency`) */
  ahead?: number;
  /** attempts per segment after a failure (default 3) */
  maxRetries?: number;
  retryDelayMs?: number;
  /** a single segment larger than this fails the download (bounded memory); default 64 MiB */
  maxSegmentBytes?: number;
  logger?: Logger;
  signal?: AbortSignal;
  /**
   * Re-resolve the manifest when segment URLs have expired (403/410): gives the same segments
   * with fresh URLs; the download goes on from the segment that was refused.
   */
  refresh?: () => Promise<{ init?: SegmentRef; segments: SegmentRef[] }>;
}

const MAX_REFRESHES = 3;


export function openSegmentSource(opts: SegmentReaderOptions): Readable {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) controller.abort(opts.signal.reason);
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const concurrency = Math.max(1, Math.floor(opts.concurrency));
  // every request in flight listens on the signal (twice: headers, then body): not a leak
  setMaxListeners(10 + 3 * concurrency, controller.signal);
  const maxRetries = opts.maxRetries ?? 3;
  const retryDelayMs = opts.retryDelayMs ?? 200;
  const maxBytes = opts.maxSegmentBytes ?? 64 * 1024 * 1024;
  let all = opts.init ? [opts.init, ...opts.segments] : [...opts.segments];

  // One re-resolve at a time serves every segment refused meanwhile.
  let refreshes = 0;
  let refreshing: Promise<boolean> | null = null;
  let generation = 0;
  function refreshList(seen: number): Promise<boolean> {
    if (generation !== seen) return Promise.resolve(true);
    if (refreshing) return refreshing;
    const refresh = opts.refresh;
    if (!refresh || refreshes >= MAX_REFRESHES) return Promise.resolve(false);
    refreshes++;
    opts.logger?.info({ refreshes }, "segment refused (expired): re-resolving the manifest");
    refreshing = (async () => {
      try {
        const fresh = await refresh();
        const next = fresh.init ? [fresh.init, ...fresh.segments] : [...fresh.segments];
        if (next.length !== all.length) {
          throw new EngineError("upstream.expired", { detail: `manifest changed from ${all.length} to ${next.length} segments` });
        }
        all = next;
        generation++;
        return true;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  async function fetchSegment(index: number): Promise<Buffer> {
    for (let attempt = 0; ; attempt++) {
      const seen = generation;
      const ref = all[index]!;
      try {
        const headers: Record<string, string> = {};
        if (ref.range) headers.range = `bytes=${ref.range.start}-${ref.range.end}`;
        const res = await opts.open(ref.url, { headers, signal: controller.signal, maxBytes });
        // a discarded body can still fail later (teardown aborts it): that must not crash the process
        res.body.on("error", () => undefined);
        if (res.status !== 200 && res.status !== 206) {
          res.body.resume();
          if ((res.status === 403 || res.status === 410) && (await refreshList(seen))) {
            attempt--;
            continue;
          }
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
        await abortableDelay(retryDelayMs * 2 ** attempt, controller.signal);
      }
    }
  }

  /** segments fetched and waiting for their turn (a failure waits for its turn too) */
  const ready = new Map<number, Buffer | Error>();
  const window = concurrency + Math.max(0, Math.floor(opts.ahead ?? concurrency));
  let started = 0;
  let delivered = 0;
  let inflight = 0;
  let wanted = false;
  let done = false;

  const stream = new Readable({
    highWaterMark: 64 * 1024,
    read() {
      wanted = true;
      deliver();
    },
    destroy(err, cb) {
      done = true;
      ready.clear();
      opts.signal?.removeEventListener("abort", onOuterAbort);
      controller.abort();
      cb(err);
    },
  });

  function pump(): void {
    while (!done && started < all.length && inflight < concurrency && started - delivered < window) {
      const index = started++;
      inflight++;
      fetchSegment(index).then(
        (buf) => settle(index, buf),
        (err: unknown) => settle(index, err instanceof Error ? err : new EngineError("upstream.fetch_failed", { detail: String(err) })),
      );
    }
  }

  function settle(index: number, result: Buffer | Error): void {
    inflight--;
    if (done) return;
    ready.set(index, result);
    deliver();
    pump();
  }

  /** Hands on the segments at the head, in order, while the consumer wants more. */
  function deliver(): void {
    while (!done && wanted && ready.has(delivered)) {
      const result = ready.get(delivered)!;
      ready.delete(delivered);
      delivered++;
      if (result instanceof Error) {
        done = true;
        stream.destroy(result);
        return;
      }
      if (result.length > 0) wanted = stream.push(result);
    }
    if (!done && delivered === all.length) {
      done = true;
      stream.push(null);
      return;
    }
    pump();
  }

  pump();
  return stream;
}
