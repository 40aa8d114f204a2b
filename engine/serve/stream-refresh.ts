import { EngineError } from "../errors.ts";
import type { ResolvedMedia, UpstreamStream } from "../types.ts";

/** How long one fresh resolve answers every refresh of a download's streams (ms). */
export const REFRESH_REUSE_MS = 5000;

/**
 * Re-resolving expired stream URLs for one download (an upstream answered 403). A download's
 * video and audio inputs usually expire together: one fresh resolve, started by the first of
 * them, serves every refresh asked within `reuseMs`. The stream is found again by id and kind;
 * one that is no longer listed fails the download as expired.
 */
export function createStreamRefresh(opts: { reResolve: () => Promise<ResolvedMedia>; now: () => number; reuseMs?: number }): (stream: UpstreamStream) => Promise<UpstreamStream> {
  const reuseMs = opts.reuseMs ?? REFRESH_REUSE_MS;
  let latest: { at: number; media: Promise<ResolvedMedia> } | null = null;
  return async (stream) => {
    if (!latest || opts.now() - latest.at > reuseMs) latest = { at: opts.now(), media: opts.reResolve() };
    const fresh = await latest.media;
    const match = fresh.streams.find((s) => s.id === stream.id && s.kind === stream.kind);
    if (!match) throw new EngineError("upstream.expired", { detail: `stream ${stream.id} is gone after re-resolving` });
    return match;
  };
}
