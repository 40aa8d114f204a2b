import type { Logger } from "pino";
import { EngineError, isEngineError } from "../errors.ts";
import type { SegmentRef } from "../types.ts";
import { abortableDelay } from "./abortable-delay.ts";
import type { OutboundOpen } from "../outbound/outbound-fetch.ts";
import { createRetryBudget } from "./retry-budget.ts";
import type { RefusalLadder } from "./refusal-ladder.ts";
import type { SingleFlightRefresh } from "./single-flight-refresh.ts";

/**
 * Fetches one part (an HLS/DASH segment, or one byte range of a direct file) completely into
 * memory, with the retry policy of the segment and range readers: a network error, a cut or a
 * 5xx is retried with backoff; a cut byte range resumes at the offset where its bytes stopped
 * (only the missing rest is asked for again); a refusal (403/410) re-resolves the URLs once for
 * every part in flight; anything else that is permanent fails at once.
 */
export interface FetchPartOptions {
  open: OutboundOpen;
  signal: AbortSignal;
  /** the part's current reference (it changes when the URLs are re-resolved) */
  ref: () => SegmentRef;
  /** label for errors and logs ("segment 12") */
  label: string;
  refresher: SingleFlightRefresh;
  /** the download's budgets of refusals (a 403 is charged before the part is asked again) */
  refusals?: RefusalLadder;
  maxRetries: number;
  retryDelayMs: number;
  /** a part larger than this fails (bounded memory) */
  maxBytes: number;
  /** a consumer is blocked on this part right now (goes first under the host's connection cap) */
  urgent?: boolean;
  /** every piece of body as it arrives (throughput measurement) */
  onBytes?: (count: number) => void;
  logger?: Logger;
}

const CONTENT_RANGE_START = /^bytes\s+(\d+)-/i;

/**
 * A part's body as it arrived: its pieces in order, not joined into one buffer. Joining copied
 * every byte of every segment once more and allocated as much again outside the JavaScript heap
 * (memory the collector counts towards its next collection); whoever writes the part on hands
 * the pieces on one after the other.
 */
export type PartBody = Buffer[];

export const partLength = (body: PartBody): number => {
  let n = 0;
  for (const piece of body) n += piece.length;
  return n;
};

/** bytes [start, end] of a body, as pieces (views, no copy) */
function sliceBody(body: PartBody, start: number, end: number): PartBody {
  const out: PartBody = [];
  let at = 0;
  for (const piece of body) {
    const from = Math.max(start - at, 0);
    const to = Math.min(end + 1 - at, piece.length);
    if (from < to) out.push(from === 0 && to === piece.length ? piece : piece.subarray(from, to));
    at += piece.length;
    if (at > end) break;
  }
  return out;
}

function permanent(err: unknown): boolean {
  return isEngineError(err) && (err.code === "upstream.expired" || err.code === "upstream.too_large" || err.code === "link.blocked_address");
}

export async function fetchPart(opts: FetchPartOptions): Promise<PartBody> {
  /** bytes of a ranged part already received by attempts that were cut */
  const got: PartBody = [];
  let gotBytes = 0;
  const retries = createRetryBudget({ maxRetries: opts.maxRetries, retryDelayMs: opts.retryDelayMs, retryable: (err) => !permanent(err) });
  for (;;) {
    const seen = opts.refresher.generation;
    const ref = opts.ref();
    const from = ref.range ? ref.range.start + gotBytes : null;
    try {
      const headers: Record<string, string> = {};
      if (ref.range) headers.range = `bytes=${from}-${ref.range.end}`;
      const res = await opts.open(ref.url, { headers, signal: opts.signal, maxBytes: opts.maxBytes, urgent: opts.urgent });
      // a discarded body can still fail later (teardown aborts it): that must not crash the process
      res.body.on("error", () => undefined);
      if (res.status !== 200 && res.status !== 206) {
        res.body.resume();
        if (res.status === 403) opts.refusals?.charge(ref.url, from ?? 0);
        // a fresh URL is not a retry of the part: it is asked again at once
        if ((res.status === 403 || res.status === 410) && (await opts.refresher.refresh(seen))) continue;
        if (res.status === 403 || res.status === 404 || res.status === 410) {
          throw new EngineError("upstream.expired", { detail: `${opts.label} answered ${res.status}` });
        }
        throw new EngineError("upstream.fetch_failed", { detail: `${opts.label} answered ${res.status}` });
      }
      if (ref.range && res.status === 206) {
        const m = CONTENT_RANGE_START.exec(res.headers.get("content-range") ?? "");
        if (m && Number(m[1]) !== from) {
          res.body.destroy();
          throw new EngineError("upstream.fetch_failed", { detail: `${opts.label}: answered from ${m[1]}, asked from ${from}` });
        }
      }
      if (ref.range && res.status === 200) {
        // An upstream that ignores Range sends the whole file: cut our part out of it.
        got.length = 0;
        gotBytes = 0;
      }
      const pieces: Buffer[] = [];
      try {
        for await (const piece of res.body) {
          const buf = piece as Buffer;
          pieces.push(buf);
          opts.onBytes?.(buf.length);
        }
      } catch (err) {
        // keep what arrived of a range answered from our offset: the next attempt asks for the rest
        if (ref.range && res.status === 206) {
          for (const p of pieces) {
            got.push(p);
            gotBytes += p.length;
          }
        }
        throw err;
      }
      let body: PartBody = pieces;
      let length = partLength(body);
      if (ref.range) {
        const want = ref.range.end - ref.range.start + 1;
        if (res.status === 200 && length > want) {
          body = sliceBody(body, ref.range.start, ref.range.end);
          length = partLength(body);
        } else if (gotBytes > 0) {
          body = [...got, ...body];
          length += gotBytes;
        }
        if (length !== want) {
          // a short answer counts like a cut: resume after what arrived
          if (res.status === 206 && length < want) {
            got.length = 0;
            got.push(...body);
            gotBytes = length;
          }
          throw new EngineError("upstream.fetch_failed", { detail: `${opts.label}: ${length} of ${want} bytes` });
        }
      } else {
        const declared = Number(res.headers.get("content-length"));
        if (res.headers.has("content-length") && Number.isFinite(declared) && length !== declared) {
          throw new EngineError("upstream.fetch_failed", { detail: `${opts.label}: ${length} of ${declared} bytes` });
        }
      }
      return body;
    } catch (err) {
      if (opts.signal.aborted) throw err;
      const delayMs = retries.next(err);
      if (delayMs === null) {
        throw isEngineError(err) ? err : new EngineError("upstream.fetch_failed", { cause: err, detail: `${opts.label}: ${(err as Error).message}` });
      }
      opts.logger?.warn({ part: opts.label, attempt: retries.failures, resumeAt: from, err: (err as Error).message }, "part failed; retrying at its offset");
      await abortableDelay(delayMs, opts.signal);
    }
  }
}
