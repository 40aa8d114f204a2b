/**
 * What one download does when the platform refuses it (403) mid-way, shared by all of its
 * readers (video and audio usually meet the same refusal). The rungs, in order, each at most
 * once per download:
 *   1. shrink: every request from now on asks for at most `pieceBytes` (a token-gated client's
 *      URL still gets about 1 MB per request: review youtube-2026-11 §1.1, cobalt#1565), and the
 *      refused request is asked again as pieces;
 *   2. re-resolve on the same client and continue at the byte offset reached;
 *   3. the next client (rungs 2 and 3 are the stream refresh's: engine/serve/stream-refresh.ts);
 * then the download fails with `upstream.refused`. Every refusal is charged to two budgets before
 * anything is asked again: the download's own (`maxRefusals`) and the host's, shared by the whole
 * process (engine/outbound/host-refusals.ts), so many failing downloads cannot storm one host.
 */
import type { Logger } from "pino";
import { EngineError } from "../errors.ts";
import type { HostRefusals } from "../outbound/host-refusals.ts";

/** What a token-gated googlevideo request still gets (cobalt#1565: a 1 MB range 206, a 2 MB range 403). */
export const TOKEN_FREE_REQUEST_BYTES = 1024 * 1024;
/** Refusals one download may meet before it fails (the rungs need about four with video and audio). */
export const DEFAULT_MAX_REFUSALS = 8;

export interface RefusalLadder {
  /** the most bytes one request may ask for: unbounded until rung 1 was climbed */
  readonly pieceBytes: number;
  /**
   * A request of `bytes` (null: open-ended) to `url` was refused at `pos`. Charges both budgets
   * (throws `upstream.refused` when one is spent); true when the request should be asked again
   * at once as pieces (rung 1), false when it needs a fresh URL (rungs 2 and 3).
   */
  refused(url: string, bytes: number | null, pos: number): boolean;
  /** A part that cannot be asked for in pieces (a segment) was refused: charges both budgets only. */
  charge(url: string, pos: number): void;
  /** refusals charged so far */
  readonly refusals: number;
}

/** How downloads answer refusals; every field has a default (the engine's dependency seam, tests scale it). */
export interface RefusalPolicy {
  /** the per-host budget (default: the process's, engine/outbound/host-refusals.ts) */
  hosts?: HostRefusals;
  /** refusals one download may meet (default DEFAULT_MAX_REFUSALS) */
  maxRefusals?: number;
  /** the range size of rung 1 (default TOKEN_FREE_REQUEST_BYTES) */
  pieceBytes?: number;
}

export interface RefusalLadderOptions extends RefusalPolicy {
  hosts: HostRefusals;
  logger?: Logger;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function createRefusalLadder(opts: RefusalLadderOptions): RefusalLadder {
  const maxRefusals = opts.maxRefusals ?? DEFAULT_MAX_REFUSALS;
  const piece = opts.pieceBytes ?? TOKEN_FREE_REQUEST_BYTES;
  let shrunk = false;
  let refusals = 0;

  /** Counts one refusal against the download's and the host's budgets; throws when either is spent. */
  function charge(url: string, pos: number): string {
    const host = hostOf(url);
    refusals++;
    if (refusals > maxRefusals) {
      opts.logger?.warn({ host, pos, refusals }, "upstream refused (403): the download's budget of refusals is spent; giving up");
      throw new EngineError("upstream.refused", { detail: `${host} refused ${refusals} requests of this download` });
    }
    if (!opts.hosts.take(host)) {
      opts.logger?.warn({ host, pos }, "upstream refused (403): this host refused too many requests lately; not asking it again now");
      throw new EngineError("upstream.refused", { detail: `${host}: the host's budget of retries after refusals is spent` });
    }
    return host;
  }

  return {
    charge(url, pos) {
      charge(url, pos);
    },
    get pieceBytes() {
      return shrunk ? piece : Infinity;
    },
    get refusals() {
      return refusals;
    },
    refused(url, bytes, pos) {
      const host = charge(url, pos);
      const large = bytes === null || bytes > piece;
      if (!large) return false;
      if (!shrunk) {
        shrunk = true;
        opts.logger?.info({ host, pos, bytes, pieceBytes: piece }, "upstream refused (403): asking for the rest in smaller ranges");
      }
      // a request asked before the shrink (another reader's, a prefetched one): again, as pieces
      return true;
    },
  };
}
