import type { Logger } from "pino";
import { EngineError } from "../errors.ts";
import type { ResolvedMedia, UpstreamStream } from "../types.ts";

/**
 * Fresh URLs for one download's streams after the platform refused one (403): rungs 2 and 3 of
 * the download's refusal ladder (engine/stream/refusal-ladder.ts has rung 1 and the budgets),
 * each climbed at most once per download:
 *   2. re-resolve, bypassing the cache (the source asks its clients in order again, so the same
 *      client answers unless it stopped playing), and the readers continue at their offsets;
 *   3. another egress, when the server has more than one way out and another is not resting
 *      (the refused one rests: a fresh URL refused again speaks against its address), the
 *      clients asked in their order again; else re-resolve without the client whose URL was
 *      refused (YouTube's next client), when the source can and the URL names its client;
 * then `upstream.refused`. A download's video and audio inputs are usually refused together: a
 * stream whose URL is older than the latest fresh answer just gets that answer's URL, climbing
 * nothing. The stream is found again by id and kind; one that is no longer listed fails the
 * download as expired.
 */
export interface StreamRefreshOptions {
  /** a fresh resolve of the download's link (never the cache) */
  reResolve: () => Promise<ResolvedMedia>;
  /** a fresh resolve that leaves out the clients named; absent: the source has no next client */
  resolveAvoiding?: (clients: string[]) => Promise<ResolvedMedia>;
  /**
   * rests the egress named (its URLs were refused after a fresh resolve) and resolves afresh on
   * another one; null when there is no other egress (engine/outbound/egress.ts)
   */
  resolveOnOtherEgress?: (refused: string) => Promise<ResolvedMedia> | null;
  logger?: Logger;
}

/** The InnerTube client a googlevideo URL was handed to (`c=`, e.g. VISIONOS), if it says. */
export function clientOfStreamUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.hostname.endsWith(".googlevideo.com") ? u.searchParams.get("c") : null;
  } catch {
    return null;
  }
}

function matchIn(media: ResolvedMedia, stream: UpstreamStream): UpstreamStream {
  // a progressive stream read for its picture alone (another audio language: docs/decisions/067) is listed as it is
  const match = media.streams.find((s) => s.id === stream.id && (s.kind === stream.kind || (stream.kind === "video" && s.kind === "progressive")));
  if (!match) throw new EngineError("upstream.expired", { detail: `stream ${stream.id} is gone after re-resolving` });
  return match;
}

/**
 * Whether the latest answer hands this stream other URLs than the ones it was refused with. A
 * segmented stream's playlist URL may stay the same while its segments' signed URLs change, and a
 * clip's input holds only some of the segments: its init and first segment must be in the answer.
 */
function newerIn(match: UpstreamStream, stream: UpstreamStream): boolean {
  if (match.url !== stream.url) return true;
  if (stream.transport.type !== "segments" || match.transport.type !== "segments") return false;
  const fresh = new Set([match.transport.init, ...match.transport.segments].map((s) => s?.url));
  return [stream.transport.init, stream.transport.segments[0]].some((s) => s !== undefined && !fresh.has(s.url));
}

export function createStreamRefresh(opts: StreamRefreshOptions): (stream: UpstreamStream) => Promise<UpstreamStream> {
  let latest: Promise<ResolvedMedia> | null = null;
  let rungs = 0;
  const avoided: string[] = [];
  const log = opts.logger;

  /** Starts the next rung (synchronously: a second refusal waiting on the same answer sees it). */
  function climb(stream: UpstreamStream): Promise<ResolvedMedia> {
    rungs++;
    if (rungs === 1) {
      log?.info({ stream: stream.id }, "upstream refused (403): re-resolving the stream URLs; continuing at the offsets reached");
      return opts.reResolve();
    }
    const egress = stream.request?.egress?.id;
    const moved = rungs === 2 && egress && opts.resolveOnOtherEgress ? opts.resolveOnOtherEgress(egress) : null;
    if (moved) {
      log?.info({ stream: stream.id, egress }, "upstream refused (403) the re-resolved URL too: resolving on another egress; continuing at the offsets reached");
      return moved;
    }
    const client = clientOfStreamUrl(stream.url);
    if (rungs === 2 && client && opts.resolveAvoiding) {
      avoided.push(client);
      log?.info({ stream: stream.id, avoided }, "upstream refused (403) the re-resolved URL too: asking the next client; continuing at the offsets reached");
      return opts.resolveAvoiding([...avoided]);
    }
    log?.warn({ stream: stream.id }, "upstream refused (403) after every way round it: giving up");
    return Promise.reject(new EngineError("upstream.refused", { detail: `stream ${stream.id} refused after ${rungs - 1} re-resolve(s)` }));
  }

  return async (stream) => {
    for (;;) {
      const pending = latest;
      if (!pending) break;
      const fresh = await pending;
      // someone climbed while this refusal waited: look at the newer answer
      if (latest !== pending) continue;
      const match = matchIn(fresh, stream);
      // refused with a URL older than the latest answer: that answer's URL, no rung climbed
      if (newerIn(match, stream)) return match;
      break;
    }
    const mine = climb(stream);
    latest = mine;
    return matchIn(await mine, stream);
  };
}
