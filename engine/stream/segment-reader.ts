import { setMaxListeners } from "node:events";
import { Readable } from "node:stream";
import type { Logger } from "pino";
import { EngineError } from "../errors.ts";
import type { SegmentRef } from "../types.ts";
import { createAdaptiveParallelism, type AdaptiveParallelism } from "./adaptive-parallelism.ts";
import { fetchPart, partLength, type PartBody } from "./fetch-part.ts";
import type { OutboundOpen } from "../outbound/outbound-fetch.ts";
import type { RefusalLadder } from "./refusal-ladder.ts";
import { createSingleFlightRefresh } from "./single-flight-refresh.ts";

/**
 * HLS/DASH segments (init first, byte ranges honoured) fetched in parallel and emitted strictly
 * in order. Invariant: at most `concurrency` requests in flight and `concurrency + ahead`
 * segments held, so memory is bounded whatever the number of segments.
 * Why: docs/decisions/008-segment-concurrency.md.
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
  /**
   * grow the requests in flight from `concurrency` up to this many while the consumer starves and
   * throughput grows (byte ranges of a throttled direct file); default: fixed at `concurrency`
   */
  maxConcurrency?: number;
  /** label of one part in errors and logs (default "segment") */
  partName?: string;
  /**
   * A part fetched before this reader opened (`SegmentPrefetch.take`), or null: used in place of
   * a request of its own; a prefetch that failed is fetched again as usual.
   */
  prefetched?: (ref: SegmentRef, signal: AbortSignal) => Promise<PartBody> | null;
  /** the download's budgets of refusals (refusal-ladder.ts) */
  refusals?: RefusalLadder;
}

const MAX_REFRESHES = 3;

/** segments a reader keeps fetched beyond the ones in flight when `ahead` is not given */
export const segmentsAhead = (concurrency: number): number => Math.max(1, Math.floor(concurrency));


export function openSegmentSource(opts: SegmentReaderOptions): Readable {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) controller.abort(opts.signal.reason);
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const concurrency = Math.max(1, Math.floor(opts.concurrency));
  const maxConcurrency = Math.max(concurrency, Math.floor(opts.maxConcurrency ?? concurrency));
  const parallelism: AdaptiveParallelism | null =
    maxConcurrency > concurrency ? createAdaptiveParallelism({ start: concurrency, max: maxConcurrency }) : null;
  const level = () => parallelism?.level ?? concurrency;
  // every request in flight listens on the signal (twice: headers, then body): not a leak
  setMaxListeners(10 + 3 * maxConcurrency, controller.signal);
  const maxRetries = opts.maxRetries ?? 3;
  const retryDelayMs = opts.retryDelayMs ?? 200;
  const maxBytes = opts.maxSegmentBytes ?? 64 * 1024 * 1024;
  const partName = opts.partName ?? "segment";
  let all = opts.init ? [opts.init, ...opts.segments] : [...opts.segments];

  // One re-resolve at a time serves every segment refused meanwhile.
  const refresh = opts.refresh;
  const refresher = createSingleFlightRefresh(
    refresh
      ? async () => {
          const fresh = await refresh();
          const next = fresh.init ? [fresh.init, ...fresh.segments] : [...fresh.segments];
          if (next.length !== all.length) {
            throw new EngineError("upstream.expired", { detail: `manifest changed from ${all.length} to ${next.length} segments` });
          }
          all = next;
        }
      : undefined,
    { max: MAX_REFRESHES, onStart: (refreshes) => opts.logger?.info({ refreshes }, `${partName} refused (expired): re-resolving`) },
  );

  const fetchSegment = (index: number): Promise<PartBody> => {
    const fetchOwn = () =>
      fetchPart({
        open: opts.open,
        signal: controller.signal,
        ref: () => all[index]!,
        label: `${partName} ${index}`,
        refresher,
        refusals: opts.refusals,
        maxRetries,
        retryDelayMs,
        maxBytes,
        urgent: index === delivered,
        onBytes: parallelism ? (n) => parallelism.bytes(n, performance.now()) : undefined,
        logger: opts.logger,
      });
    const early = opts.prefetched?.(all[index]!, controller.signal);
    if (!early) return fetchOwn();
    return early.then(
      (body) => {
        const length = partLength(body);
        return length > maxBytes ? Promise.reject(new EngineError("upstream.too_large", { detail: `${partName} ${index}: ${length} bytes` })) : body;
      },
      (err: unknown) => {
        if (controller.signal.aborted) throw err;
        return fetchOwn();
      },
    );
  };

  /** segments fetched and waiting for their turn (a failure waits for its turn too) */
  const ready = new Map<number, PartBody | Error>();
  const ahead = Math.max(0, Math.floor(opts.ahead ?? segmentsAhead(concurrency)));
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
    while (!done && started < all.length && inflight < level() && started - delivered < level() + ahead) {
      const index = started++;
      inflight++;
      fetchSegment(index).then(
        (body) => settle(index, body),
        (err: unknown) => settle(index, err instanceof Error ? err : new EngineError("upstream.fetch_failed", { detail: String(err) })),
      );
    }
  }

  function settle(index: number, result: PartBody | Error): void {
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
      // the whole part goes on (a push past the high-water mark is kept, not lost)
      for (const piece of result) if (piece.length > 0) wanted = stream.push(piece);
    }
    if (!done && delivered === all.length) {
      done = true;
      stream.push(null);
      return;
    }
    // the consumer waits and the head is not here yet: more requests may help
    if (wanted && !done) parallelism?.starved(performance.now());
    pump();
  }

  pump();
  return stream;
}
