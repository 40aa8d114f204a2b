/**
 * The switch to parallel ranges (decision 021): whether the rest of a direct file should be
 * fetched as parallel parts, and the stream of those parts. The rest goes parallel only when
 * allowed (`rangeConcurrency` > 1), worth it (at least two parts left), the last connection was
 * slow although the consumer kept up (the origin throttles each connection), and the process's
 * memory budget has room for the whole window of parts.
 */
import type { Readable } from "node:stream";
import type { Logger } from "pino";
import type { ByteBudget, ConnectionRate } from "./connection-rate.ts";
import type { OutboundOpen } from "../outbound/outbound-fetch.ts";
import { rangeSizing, splitRange } from "./range-plan.ts";
import type { RefusalLadder } from "./refusal-ladder.ts";
import type { RangeTarget } from "./range-request.ts";
import { openSegmentSource } from "./segment-reader.ts";

export interface ParallelPolicy {
  rangeConcurrency: number;
  chunkBytes: number;
  /** bytes of the probe request (the rate is judged after half of them) */
  probeBytes: number;
  /** a connection slower than this (bytes/s, consumer waiting) counts as throttled */
  throttledBelow: number;
  budget: ByteBudget;
}

/** The reservation a download holds while its rest is fetched in parallel parts. */
export interface ParallelPlan {
  partBytes: number;
  /** bytes per second the measured connection delivered */
  bytesPerSecond: number;
  /** gives the window back to the budget (idempotent) */
  release(): void;
}

/** The plan for the `remaining` bytes after a connection measured as `measured`, or null: stay sequential. */
export function decideParallel(policy: ParallelPolicy, measured: ConnectionRate | null, remaining: number | null, now: number): ParallelPlan | null {
  if (policy.rangeConcurrency < 2 || remaining === null || !measured || measured.everPaused) return null;
  const { partBytes } = rangeSizing(policy.chunkBytes, remaining, policy.rangeConcurrency);
  if (remaining < 2 * partBytes) return null;
  const rate = measured.rate(now, policy.probeBytes / 2);
  if (rate === null || rate >= policy.throttledBelow) return null;
  const release = policy.budget.tryReserve((policy.rangeConcurrency + 1) * partBytes);
  return release ? { partBytes, bytesPerSecond: rate, release } : null;
}

export interface ParallelTailOptions {
  open: OutboundOpen;
  target: RangeTarget;
  from: number;
  last: number;
  partBytes: number;
  rangeConcurrency: number;
  maxRetries: number;
  retryDelayMs: number;
  /** a fresh URL for the same stream (installed in `target`) */
  refresh?: () => Promise<string>;
  refusals?: RefusalLadder;
  logger?: Logger;
  signal: AbortSignal;
}

/** [from, last] as parallel parts, delivered in order (the segment reader's window, adding connections while they pay off). */
export function openParallelTail(o: ParallelTailOptions): Readable {
  const refresh = o.refresh;
  return openSegmentSource({
    open: o.open,
    segments: splitRange(o.target.url, o.from, o.last, o.partBytes),
    // the probe proved the throttle: start with a few ranges, add more while they pay off
    concurrency: Math.min(4, o.rangeConcurrency),
    maxConcurrency: o.rangeConcurrency,
    ahead: 1,
    maxSegmentBytes: o.partBytes,
    maxRetries: o.maxRetries,
    retryDelayMs: o.retryDelayMs,
    partName: "range",
    refresh: refresh
      ? async () => {
          o.target.url = await refresh();
          return { segments: splitRange(o.target.url, o.from, o.last, o.partBytes) };
        }
      : undefined,
    refusals: o.refusals,
    logger: o.logger,
    signal: o.signal,
  });
}
