/**
 * The adapter registry: the first adapter whose `matches` accepts a parsed link resolves it.
 * YouTube links go to the YouTube adapter; every other http(s) link to the generic media adapter.
 */
import type { ParsedLink } from "../../common/links.ts";
import { EngineError } from "../errors.ts";
import type { SourceAdapter } from "./types.ts";
import { genericSource } from "./generic/index.ts";
import { youtubeSource } from "./youtube/index.ts";

export type { SourceAdapter, SourceContext } from "./types.ts";

export interface SourceRegistry {
  adapters: readonly SourceAdapter[];
  /** the adapter for a link; EngineError("link.unsupported") when none accepts it */
  pick(link: ParsedLink): SourceAdapter;
}

export function createSourceRegistry(adapters: readonly SourceAdapter[]): SourceRegistry {
  return {
    adapters,
    pick(link) {
      const adapter = adapters.find((a) => a.matches(link));
      if (!adapter) throw new EngineError("link.unsupported", { detail: `no adapter for ${link.kind} link` });
      return adapter;
    },
  };
}

/** The adapters in production order (most specific first). */
export function defaultSources(): SourceAdapter[] {
  return [youtubeSource, genericSource];
}
