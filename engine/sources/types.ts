/**
 * The adapter interface every source implements (a registry chosen by link, with one
 * uniform result). Adapters get everything from the context: the outbound fetch
 * (never the global fetch), configuration, logger and the located media tools.
 */
import type { Logger } from "pino";
import type { ParsedLink } from "#common/links.ts";
import type { EngineConfig } from "../config.ts";
import type { MediaTools } from "../media/ffmpeg.ts";
import type { OutboundFetch } from "../outbound/outbound-fetch.ts";
import type { Platform, ResolvedMedia, SourceResult, UpstreamStream } from "../types.ts";

export type { ParsedLink };

export interface SourceContext {
  fetch: OutboundFetch;
  config: EngineConfig;
  logger: Logger;
  media: MediaTools;
  /**
   * Set when this resolve serves a download being created: an adapter that knows streams (and
   * their segments) before it is done describing them (probing) says so here, and the engine
   * starts fetching the segments that download will likely read (docs/decisions/025).
   */
  streamsKnown?: (streams: UpstreamStream[]) => void;
  /** aborted once nobody waits for this resolve any more (its clients left): work in progress may stop */
  signal?: AbortSignal;
  /** who asked (the client's address), for a fair share of scarce work such as yt-dlp runs */
  client?: string;
}

export interface SourceAdapter {
  platform: Platform;
  matches(link: ParsedLink): boolean;
  resolve(link: ParsedLink, ctx: SourceContext): Promise<SourceResult<ResolvedMedia>>;
  /** stops what the adapter runs on its own (child processes, a local proxy); called by engine.close() */
  close?(): Promise<void>;
}
