import { abortableDelay } from "./abortable-delay.ts";
import { ByteCursor } from "./byte-cursor.ts";
import { setMaxListeners } from "node:events";
import { Readable } from "node:stream";
import type { Logger } from "pino";
import { EngineError, isEngineError } from "../errors.ts";
import { createChunkGrowth } from "./chunk-growth.ts";
import { ChunkFeed } from "./chunk-feed.ts";
import { createByteBudget, type ByteBudget, type ConnectionRate } from "./connection-rate.ts";
import type { OutboundOpen } from "../outbound/outbound-fetch.ts";
import { decideParallel, openParallelTail, type ParallelPlan } from "./parallel-tail.ts";
import { rangeSizing } from "./range-plan.ts";
import { createPrefetchQueue, type Prefetched } from "./prefetch-queue.ts";
import { requestRange, type RangeChunk, type RangeRequester, type RangeTarget } from "./range-request.ts";
import type { RefusalLadder } from "./refusal-ladder.ts";
import { createRetryBudget } from "./retry-budget.ts";
import { createSingleFlightRefresh } from "./single-flight-refresh.ts";

/**
 * A Readable over one direct upstream URL, fetched in bounded Range chunks (a cut costs one
 * chunk), the next chunk requested while the current one streams. Invariants: memory stays
 * bounded whatever the file size; a failed chunk resumes at its exact byte offset; a 403 asks for
 * a fresh URL once for every request in flight. A throttled upstream's rest goes as parallel
 * parts (parallel-tail.ts). Why: docs/decisions/021-parallel-ranges-and-host-cap.md, 035-range-chunks-grow.md.
 */
export interface RangedReaderOptions {
  open: OutboundOpen;
  url: string;
  chunkBytes: number;
  /**
   * the most one request may ask for: chunks start at `chunkBytes` and grow after each one
   * delivered whole up to this (chunk-growth.ts; default 64 MiB). A platform that throttles long
   * requests sets its own (UpstreamStream's `maxRequestBytes`).
   */
  maxChunkBytes?: number;
  /** chunks requested ahead of the one being delivered (default 1; 0 = strictly one at a time) */
  prefetch?: number;
  /** first byte (default 0) */
  start?: number;
  /** last byte, inclusive (default: the end of the resource) */
  end?: number;
  /** re-resolve the media and return a fresh URL for the same stream (on 403) */
  refresh?: () => Promise<string>;
  /** the download's answer to a 403 and its budgets, shared by its readers (refusal-ladder.ts) */
  refusals?: RefusalLadder;
  /** attempts per chunk after a cut or network error (default 4); progress resets the count */
  maxRetries?: number;
  retryDelayMs?: number;
  /** extra headers for every request */
  headers?: Record<string, string>;
  logger?: Logger;
  /** aborts every request of this reader */
  signal?: AbortSignal;
  /** most ranges in flight against a throttling upstream (DOWNLOAD_RANGE_CONCURRENCY); default 1 = never parallel */
  rangeConcurrency?: number;
  /** a connection slower than this (bytes/s, consumer waiting) counts as throttled; default 8 MiB/s */
  throttledBelow?: number;
  /** memory parallel parts may hold, shared by the readers that pass the same budget (default: process-wide 256 MiB) */
  budget?: ByteBudget;
}

export interface RangedSource {
  stream: Readable;
  /** total length of the resource, when the upstream said */
  total: number | null;
  /** bytes this reader will deliver (end - start + 1), when known */
  length: number | null;
  contentType: string | null;
}

const MAX_REFRESHES = 3;
const noop = () => undefined;
/** DOWNLOAD_RANGE_CONCURRENCY's default */
export const DEFAULT_RANGE_CONCURRENCY = 6;
const processBudget = createByteBudget(256 * 1024 * 1024);


/**
 * Opens the first chunk right away (so an error surfaces before response headers are sent) and
 * returns a stream that fetches the rest on demand, `prefetch` chunks ahead.
 */
export async function openRangedSource(opts: RangedReaderOptions): Promise<RangedSource> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) controller.abort(opts.signal.reason);
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });

  const chunkBytes = Math.max(1024, Math.floor(opts.chunkBytes));
  const prefetch = Math.max(0, Math.floor(opts.prefetch ?? 1));
  // every request in flight listens on the signal (twice: headers, then body): not a leak
  setMaxListeners(10 + 3 * (1 + prefetch), controller.signal);
  const maxRetries = opts.maxRetries ?? 4;
  const retryDelayMs = opts.retryDelayMs ?? 200;
  const retries = createRetryBudget({ maxRetries, retryDelayMs, retryable: retryableError });
  const log = opts.logger;
  const rangeConcurrency = Math.max(1, Math.floor(opts.rangeConcurrency ?? 1));
  const throttledBelow = opts.throttledBelow ?? 8 * 1024 * 1024;
  const budget = opts.budget ?? processBudget;
  /** the URL, the last byte wanted, the length and type: learned from the answers (range-request.ts) */
  const target: RangeTarget = { url: opts.url, end: opts.end ?? null, total: null, contentType: null };
  /** the next byte to deliver: a cut or failed chunk resumes exactly there */
  const cursor = new ByteCursor(opts.start ?? 0, target);
  const initialLength = target.end !== null ? target.end - cursor.pos + 1 : null;
  /** how much the next request asks for: grows while chunks arrive whole, back down after a cut */
  const sizes = createChunkGrowth(chunkBytes, opts.maxChunkBytes);
  const { probeBytes } = rangeSizing(sizes.bytes, initialLength, rangeConcurrency);

  /** Asks for a fresh URL once, however many requests in flight were refused with the old one. */
  const refresh = opts.refresh;
  const refresher = createSingleFlightRefresh(
    refresh
      ? async () => {
          target.url = await refresh();
        }
      : undefined,
    { max: MAX_REFRESHES, onStart: (refreshes) => log?.info({ pos: cursor.pos, refreshes }, "upstream refused (403): re-resolving the stream URL") },
  );

  const requester: RangeRequester = {
    open: opts.open,
    target,
    get chunkBytes() {
      return Math.min(sizes.bytes, opts.refusals?.pieceBytes ?? Infinity);
    },
    refresher: refresh ? refresher : undefined,
    refusals: opts.refusals,
    headers: opts.headers,
    signal: controller.signal,
  };
  const request = (start: number, until?: number, urgent = true) => requestRange(requester, start, until, urgent);

  let first: RangeChunk;
  try {
    const probeLast = rangeConcurrency > 1 ? cursor.pos + probeBytes - 1 : undefined;
    first = await request(cursor.pos, target.end !== null && probeLast !== undefined ? Math.min(target.end, probeLast) : probeLast);
  } catch (err) {
    opts.signal?.removeEventListener("abort", onOuterAbort);
    throw err;
  }
  const startPos = opts.start ?? 0;

  /** last byte of the range being delivered (a resume asks only for the rest of it) */
  let currentLast: number | null = null;
  const ahead = createPrefetchQueue((from, last) => request(from, last, false));
  let busy = false; // a request or a retry delay is in progress
  let finished = false;
  /** set once the upstream proved to throttle each connection: the rest goes in parallel parts */
  let parallel: ParallelPlan | null = null;

  const stream = new Readable({
    highWaterMark: 1024 * 1024,
    read() {
      if (feed.current) feed.resume();
      else if (!busy && !finished) next();
    },
    destroy(err, cb) {
      finished = true;
      parallel?.release();
      opts.signal?.removeEventListener("abort", onOuterAbort);
      controller.abort();
      feed.detach(true);
      ahead.clear();
      cb(err);
    },
  });

  /** what the feed says of each chunk, and what the reader does next */
  const feed = new ChunkFeed(cursor, {
    push: (buf) => stream.push(buf),
    progressed: () => retries.progressed(),
    complete: finish,
    ended(chunk) {
      if (finished) return;
      if (cursor.endedEarly(chunk.expect)) {
        sizes.cut(chunk.expect);
        retry(new EngineError("upstream.fetch_failed", { detail: `chunk at ${cursor.pos} ended early` }), "upstream chunk ended early; resuming at its byte offset");
        return;
      }
      if ((target.end === null && chunk.expect === null) || chunk.expect === 0 || cursor.complete) {
        finish();
        return;
      }
      if (arrivedFast(chunk)) sizes.completed();
      next();
    },
    failed(chunk, err) {
      if (finished) return;
      if (controller.signal.aborted) {
        stream.destroy(err);
        return;
      }
      sizes.cut(chunk.expect);
      retry(err, "upstream chunk was cut; resuming at its byte offset");
    },
  });

  /**
   * Longer requests only for an upstream that is quick about them: a chunk that came slower than
   * `throttledBelow` while the consumer waited says the upstream limits each connection (perhaps
   * only after some bytes), and a longer request would only put off noticing it.
   */
  function arrivedFast(chunk: RangeChunk): boolean {
    const measured = feed.rate;
    if (!measured || measured.everPaused) return true;
    const rate = measured.rate(performance.now(), Math.min(256 * 1024, (chunk.expect ?? 0) / 2));
    return rate === null || rate >= throttledBelow;
  }

  function attach(chunk: RangeChunk, fromParts = false): void {
    currentLast = chunk.last;
    feed.attach(chunk, !fromParts);
    schedulePrefetch();
  }

  /** Requests the chunks after the one being delivered, up to `prefetch` of them. */
  function schedulePrefetch(): void {
    const current = feed.current;
    if (finished || target.end === null || current === null || current.full || current.last === null) return;
    ahead.fill(current.last, target.end, prefetch, requester.chunkBytes);
  }

  function finish(): void {
    if (finished) return;
    finished = true;
    parallel?.release();
    ahead.clear();
    stream.push(null);
  }

  function fail(err: unknown): void {
    finished = true;
    parallel?.release();
    ahead.clear();
    stream.destroy(isEngineError(err) ? err : new EngineError("upstream.fetch_failed", { cause: err, detail: `chunk at ${cursor.pos}: ${(err as Error)?.message}` }));
  }

  function retry(err: unknown, message: string): void {
    const delayMs = retries.next(err);
    if (delayMs === null) {
      fail(err);
      return;
    }
    log?.warn({ pos: cursor.pos, failures: retries.failures, err: (err as Error)?.message }, message);
    busy = true;
    abortableDelay(delayMs, controller.signal).then(
      () => {
        busy = false;
        next();
      },
      (e: unknown) => {
        busy = false;
        fail(e);
      },
    );
  }

  /** The range to request fresh at `pos`: the rest of the cut chunk, never overlapping a prefetched one. */
  function freshUntil(): number | undefined {
    const pos = cursor.pos;
    let until: number | undefined = currentLast !== null && pos <= currentLast ? currentLast : undefined;
    const upcoming = ahead.nextStart();
    if (upcoming !== null) until = Math.min(until ?? pos + sizes.bytes - 1, pos + sizes.bytes - 1, upcoming - 1);
    return until;
  }

  /** True once the rest is (to be) fetched in parallel parts (parallel-tail.ts decides). */
  function goParallel(measured: ConnectionRate | null): boolean {
    if (parallel) return true;
    // a download refused for asking too much stays with small sequential ranges
    if (opts.refusals && Number.isFinite(opts.refusals.pieceBytes)) return false;
    parallel = decideParallel({ rangeConcurrency, chunkBytes, probeBytes, throttledBelow, budget }, measured, target.end === null ? null : target.end - cursor.pos + 1, performance.now());
    if (parallel) log?.debug({ pos: cursor.pos, bytesPerSecond: Math.round(parallel.bytesPerSecond) }, "upstream throttles each connection: fetching the rest in parallel ranges");
    return parallel !== null;
  }

  /** The rest of the range [pos, end] as parallel parts, delivered in order like one chunk. */
  function attachParallel(plan: ParallelPlan): void {
    ahead.clear();
    const from = cursor.pos;
    const last = target.end!;
    const tail = openParallelTail({ open: opts.open, target, from, last, partBytes: plan.partBytes, rangeConcurrency, maxRetries, retryDelayMs, refresh, refusals: opts.refusals, logger: log, signal: controller.signal });
    tail.on("error", noop);
    attach({ body: tail, start: from, last, expect: last - from + 1, skip: 0, full: false }, true);
  }

  function next(): void {
    if (finished || busy || feed.current) return;
    if (cursor.complete) {
      finish();
      return;
    }
    if (goParallel(feed.rate)) {
      attachParallel(parallel!);
      return;
    }
    const upcoming = ahead.takeAt(cursor.pos);
    take(upcoming ? upcoming.promise : request(cursor.pos, freshUntil()), upcoming);
  }

  /** Waits for the chunk at `pos` to open, then streams it. */
  function take(opening: Promise<RangeChunk>, parked: Prefetched | null): void {
    busy = true;
    opening.then(
      (chunk) => {
        busy = false;
        if (finished) {
          chunk.body.destroy();
          return;
        }
        if (parked && chunk.body.destroyed) {
          // It died while parked (idle timeout behind a slow client, a cut): not the
          // upstream's failure at our offset, so ask again at once, without counting a retry.
          log?.debug({ pos: cursor.pos }, "prefetched chunk closed while waiting; requesting it again");
          take(request(cursor.pos, parked.last), null);
          return;
        }
        attach(chunk);
      },
      (err: unknown) => {
        busy = false;
        if (finished) return;
        if (controller.signal.aborted) fail(err);
        else retry(err, "upstream chunk failed to open; retrying");
      },
    );
  }

  attach(first);
  const length = target.end !== null ? target.end - startPos + 1 : null;
  return { stream, total: target.total, length, contentType: target.contentType };
}

function retryableError(err: unknown): boolean {
  if (!isEngineError(err)) return true;
  return err.code === "upstream.fetch_failed" || err.code === "upstream.timeout";
}
