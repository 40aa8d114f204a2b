import { setMaxListeners } from "node:events";
import type { Logger } from "pino";
import { EngineError } from "../errors.ts";
import type { SegmentRef, UpstreamRequest } from "../types.ts";
import { fetchPart, type PartBody } from "./fetch-part.ts";
import type { OutboundOpen } from "../outbound/outbound-fetch.ts";
import { openWithRequest } from "../outbound/upstream-request.ts";
import { createSingleFlightRefresh } from "./single-flight-refresh.ts";

/**
 * Segments fetched for a download while its link still resolves, handed to the segment reader
 * instead of asking the origin again (docs/decisions/025-prefetch-while-resolving.md). Bounded
 * for the whole engine (`maxParts`, `maxBytes`; a part past the budget is dropped, one nobody
 * takes within `ttlMs` aborted), and every request goes through the guarded outbound `open`.
 */
export interface SegmentPrefetch {
  /**
   * Starts fetching these parts (those not already held, while the budget allows) for `owner`
   * (a download id): `release(owner)` drops what that download did not take. With `inFlight`,
   * at most that many of them are fetched at once, the next as soon as one is in, in order.
   * `request`: the headers and cookies of the stream the parts belong to.
   */
  start(refs: readonly SegmentRef[], owner?: string, inFlight?: number, request?: UpstreamRequest): void;
  /**
   * The fetch of this part, when one was started and not taken yet: the caller owns it from now
   * on (`signal` aborts it). Null when nothing was prefetched for it.
   */
  take(ref: SegmentRef, signal: AbortSignal): Promise<PartBody> | null;
  /** drops (aborts) the parts started for `owner` that were not taken */
  release(owner: string): void;
  /** parts held now (for tests and logs) */
  readonly size: number;
  /** aborts and drops everything */
  close(): void;
}

export interface SegmentPrefetchOptions {
  open: OutboundOpen;
  /** parts held at once, engine-wide (default 48) */
  maxParts?: number;
  /** bytes held at once, engine-wide (default 64 MiB) */
  maxBytes?: number;
  /** a part not taken within this long is dropped (default 15 s) */
  ttlMs?: number;
  logger?: Logger;
}

interface Entry {
  controller: AbortController;
  result: Promise<PartBody>;
  bytes: number;
  timer: NodeJS.Timeout;
  owner?: string;
}

/** the parts of one `start` call that wait for one of its `inFlight` slots */
interface Batch {
  owner?: string;
  queue: SegmentRef[];
  running: number;
  inFlight: number;
  request?: UpstreamRequest;
}

export const prefetchKey = (ref: SegmentRef): string => (ref.range ? `${ref.url}#${ref.range.start}-${ref.range.end}` : ref.url);

const noRefresh = createSingleFlightRefresh(undefined, { max: 0 });

export function createSegmentPrefetch(opts: SegmentPrefetchOptions): SegmentPrefetch {
  const maxParts = opts.maxParts ?? 48;
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const ttlMs = opts.ttlMs ?? 15_000;
  const entries = new Map<string, Entry>();
  let heldBytes = 0;
  /** parts waiting for a free slot of their `start` call, by key */
  const waiting = new Map<string, Batch>();

  const drop = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    heldBytes -= entry.bytes;
    clearTimeout(entry.timer);
    entry.controller.abort();
  };

  /** Starts the batch's next parts while it has free slots; a part beyond the budget ends the batch. */
  function next(batch: Batch): void {
    while (batch.running < batch.inFlight && batch.queue.length > 0) {
      const ref = batch.queue.shift()!;
      const key = prefetchKey(ref);
      waiting.delete(key);
      if (entries.has(key)) continue;
      if (entries.size >= maxParts || heldBytes >= maxBytes) {
        cancel(batch);
        return;
      }
      batch.running++;
      const freed = () => {
        batch.running--;
        next(batch);
      };
      launch(ref, key, batch.owner, batch.request).result.then(freed, freed);
    }
  }

  /** forgets the parts of a batch that have not started */
  function cancel(batch: Batch): void {
    for (const ref of batch.queue.splice(0)) waiting.delete(prefetchKey(ref));
  }

  function launch(ref: SegmentRef, key: string, owner: string | undefined, request: UpstreamRequest | undefined): Entry {
    const controller = new AbortController();
    setMaxListeners(8, controller.signal);
    const entry: Entry = { controller, result: Promise.resolve([]), bytes: 0, timer: setTimeout(() => drop(key, entry), ttlMs), owner };
    entry.timer.unref();
    entry.result = fetchPart({
      open: request ? openWithRequest(opts.open, () => request) : opts.open,
      signal: controller.signal,
      ref: () => ref,
      label: "prefetched segment",
      refresher: noRefresh,
      // the reader fetches again, with its own retries, whatever failed here
      maxRetries: 0,
      retryDelayMs: 0,
      maxBytes: Math.max(1, maxBytes - heldBytes),
      onBytes: (n) => {
        if (entries.get(key) !== entry) return;
        entry.bytes += n;
        heldBytes += n;
        if (heldBytes > maxBytes) drop(key, entry);
      },
      logger: opts.logger,
    });
    // a part dropped or never taken must not surface as an unhandled rejection
    entry.result.catch(() => undefined);
    entries.set(key, entry);
    return entry;
  }

  return {
    start(refs, owner, inFlight, request) {
      const queue = refs.filter((ref) => !entries.has(prefetchKey(ref)) && !waiting.has(prefetchKey(ref)));
      const batch: Batch = { owner, queue, running: 0, inFlight: Math.max(1, inFlight ?? queue.length), request };
      for (const ref of queue) waiting.set(prefetchKey(ref), batch);
      next(batch);
    },

    take(ref, signal) {
      const key = prefetchKey(ref);
      const batch = waiting.get(key);
      if (batch) {
        // not started yet: the reader asks for it itself, and the batch no longer will
        waiting.delete(key);
        batch.queue = batch.queue.filter((r) => prefetchKey(r) !== key);
      }
      const entry = entries.get(key);
      if (!entry) return null;
      entries.delete(key);
      heldBytes -= entry.bytes;
      clearTimeout(entry.timer);
      if (signal.aborted) {
        entry.controller.abort();
        return Promise.reject(new EngineError("download.failed", { detail: "aborted" }));
      }
      const onAbort = () => entry.controller.abort(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      return entry.result.finally(() => signal.removeEventListener("abort", onAbort));
    },

    release(owner) {
      for (const batch of new Set(waiting.values())) if (batch.owner === owner) cancel(batch);
      for (const [key, entry] of [...entries]) if (entry.owner === owner) drop(key, entry);
    },

    get size() {
      return entries.size;
    },

    close() {
      for (const batch of new Set(waiting.values())) cancel(batch);
      for (const [key, entry] of [...entries]) drop(key, entry);
    },
  };
}
