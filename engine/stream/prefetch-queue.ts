/**
 * The chunks of a direct file requested ahead of the one being delivered, in file order. A new
 * request costs a round trip, so the next chunks are asked for while the current one streams;
 * their bodies stay parked until their turn. A chunk that no longer follows on (the upstream sent
 * a shorter range than asked, so the reader resumed elsewhere) is dropped with the ones after
 * it, and a dropped chunk's body is destroyed whenever its response arrives.
 */
import type { RangeChunk } from "./range-request.ts";

/** A chunk requested ahead of its turn. */
export interface Prefetched {
  start: number;
  last: number;
  promise: Promise<RangeChunk>;
}

export interface PrefetchQueue {
  /** Requests chunks of `chunkBytes` after byte `after`, up to `depth` waiting, within `end`. */
  fill(after: number, end: number, depth: number, chunkBytes: number): void;
  /** The prefetched chunk that starts at `pos`, if any; the ones before it are dropped. */
  takeAt(pos: number): Prefetched | null;
  /** first byte of the next prefetched chunk (a fresh request must stop before it) */
  nextStart(): number | null;
  /** Abandons every prefetched chunk. */
  clear(): void;
}

const noop = () => undefined;

export function createPrefetchQueue(request: (start: number, last: number) => Promise<RangeChunk>): PrefetchQueue {
  const ahead: Prefetched[] = [];
  const drop = (from: number) => {
    for (const p of ahead.splice(from)) p.promise.then((c) => c.body.destroy(), noop);
  };
  return {
    fill(after, end, depth, chunkBytes) {
      let from = ahead.length > 0 ? ahead[ahead.length - 1]!.last + 1 : after + 1;
      while (ahead.length < depth && from <= end) {
        const last = Math.min(end, from + chunkBytes - 1);
        const promise = request(from, last);
        // observed when its turn comes; this only keeps a failure ahead of its turn from being "unhandled"
        promise.catch(noop);
        ahead.push({ start: from, last, promise });
        from = last + 1;
      }
    },
    takeAt(pos) {
      // prefetched chunks that no longer follow on (the upstream sent a shorter range) are useless
      const stale = ahead.findIndex((p) => p.start < pos);
      if (stale !== -1) drop(stale);
      return ahead[0]?.start === pos ? ahead.shift()! : null;
    },
    nextStart() {
      return ahead[0]?.start ?? null;
    },
    clear() {
      drop(0);
    },
  };
}
