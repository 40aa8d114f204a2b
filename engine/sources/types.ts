/**
 * The adapter interface every source implements (cobalt's idea of a URL-pattern registry with one
 * uniform result, our own types). Adapters get everything from the context: the outbound fetch
 * (never the global fetch), configuration, logger and the located media tools.
 */
import type { Logger } from "pino";
import type { ParsedLink } from "../../common/links.ts";
import type { EngineConfig } from "../config.ts";
import type { MediaTools } from "../media/ffmpeg.ts";
import type { OutboundFetch } from "../stream/outbound-fetch.ts";
import type { Platform, ResolvedMedia, SourceResult } from "../types.ts";

export type { ParsedLink };

export interface SourceContext {
  fetch: OutboundFetch;
  config: EngineConfig;
  logger: Logger;
  media: MediaTools;
}

export interface SourceAdapter {
  platform: Platform;
  matches(link: ParsedLink): boolean;
  resolve(link: ParsedLink, ctx: SourceContext): Promise<SourceResult<ResolvedMedia>>;
}
