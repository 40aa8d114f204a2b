/**
 * The adapter registry: the first adapter whose `matches` accepts a parsed link resolves it.
 * YouTube links go to the YouTube adapter; links of other recognised platforms (Facebook,
 * Instagram, …) to yt-dlp when this server has it, else to an honest "this server cannot";
 * every other http(s) link to the generic media adapter, with yt-dlp as the fallback for web
 * pages that are not media themselves.
 */
import type { ParsedLink, PlaylistLink } from "#common/links.ts";
import { ERRORS, EngineError } from "../errors.ts";
import type { SourceResult, ResolvedMedia } from "../types.ts";
import type { SourceAdapter, SourceContext } from "./types.ts";
import { genericSource } from "./generic/index.ts";
import { platformNameOf } from "./platform-name.ts";
import { createYtdlpSource, type YtdlpBinary } from "./ytdlp/index.ts";
import { createYouTubeSource, youtubeSource } from "./youtube/index.ts";

export type { SourceAdapter, SourceContext } from "./types.ts";

export interface SourceRegistry {
  adapters: readonly SourceAdapter[];
  /** the adapter for a link; EngineError("link.unsupported") when none accepts it */
  pick(link: ParsedLink): SourceAdapter;
  /** the adapter listing a playlist link's entries; EngineError("link.unsupported") when none does */
  pickPlaylist(link: PlaylistLink): SourceAdapter & Required<Pick<SourceAdapter, "listPlaylist">>;
}

/**
 * A platform we could not reach is named: "Unable to connect to Facebook", never the catalogue's
 * "Unable to connect to our servers" (our servers are fine; the platform is not answering).
 */
function nameUnreachablePlatform(result: SourceResult<ResolvedMedia>, link: ParsedLink): SourceResult<ResolvedMedia> {
  if (result.ok || result.code !== "upstream.fetch_failed" || (result.message && result.message !== ERRORS[result.code].message)) return result;
  return { ...result, message: `Unable to connect to ${platformNameOf(link)}. The site may be down or refusing our server; please try again later.` };
}

export function createSourceRegistry(adapters: readonly SourceAdapter[]): SourceRegistry {
  return {
    adapters,
    pick(link) {
      const adapter = adapters.find((a) => a.matches(link));
      if (!adapter) throw new EngineError("link.unsupported", { detail: `no adapter for ${link.kind} link` });
      return { ...adapter, resolve: async (l, ctx) => nameUnreachablePlatform(await adapter.resolve(l, ctx), l) };
    },
    pickPlaylist(link) {
      const adapter = adapters.find((a) => a.listsPlaylist?.(link) && a.listPlaylist);
      if (!adapter?.listPlaylist) throw new EngineError("link.unsupported", { detail: `no adapter lists ${link.kind} playlists` });
      return adapter as SourceAdapter & Required<Pick<SourceAdapter, "listPlaylist">>;
    },
  };
}

/** Links of a recognised platform on a server without yt-dlp: a clear answer, never a network error. */
export const unavailablePlatformSource: SourceAdapter = {
  platform: "generic",
  matches: (link) => link.kind === "site",
  async resolve(link) {
    const name = platformNameOf(link);
    return {
      ok: false,
      code: "link.platform_unavailable",
      detail: "no yt-dlp on this server",
      message: `This server cannot download ${name} videos: ${name} support is not installed here.`,
    };
  },
  listsPlaylist: (link) => link.kind === "site",
  async listPlaylist(link) {
    const name = link.kind === "site" ? platformNameOf(link) : "this platform";
    return { ok: false, code: "link.platform_unavailable", detail: "no yt-dlp on this server", message: `This server cannot list ${name} playlists: ${name} support is not installed here.` };
  },
};

/** The generic adapter, and yt-dlp for the web pages it cannot read (a page is not a media file). */
function genericWithPageFallback(ytdlp: SourceAdapter): SourceAdapter {
  return {
    ...genericSource,
    async resolve(link: ParsedLink, ctx: SourceContext) {
      const direct = await genericSource.resolve(link, ctx);
      if (direct.ok || direct.code !== "link.unsupported") return direct;
      return ytdlp.resolve(link, ctx);
    },
  };
}

export interface DefaultSourceOptions {
  /** the located yt-dlp, or null when this server has none */
  ytdlp: YtdlpBinary | null;
  ytdlpTimeoutMs?: number;
}

/** The adapters in production order (most specific first). */
export function defaultSources(opts: DefaultSourceOptions = { ytdlp: null }): SourceAdapter[] {
  if (!opts.ytdlp) return [youtubeSource, unavailablePlatformSource, genericSource];
  const ytdlp = createYtdlpSource({ binary: opts.ytdlp, timeoutMs: opts.ytdlpTimeoutMs });
  // yt-dlp is also the YouTube ladder's last rung where YOUTUBE_CLIENTS lists it (issue 32 §1)
  return [createYouTubeSource({ ytdlp }), ytdlp, genericWithPageFallback(ytdlp)];
}
