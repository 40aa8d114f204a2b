/**
 * The YouTube source adapter. Its code and youtubei.js (tens of MB of resident memory once
 * imported) load on the first YouTube link this process resolves, not at start:
 * docs/decisions/019-small-footprint.md.
 */
import { ERRORS, isEngineError } from "../../errors.ts";
import type { ResolvedMedia, SourceResult } from "../../types.ts";
import type { PlaylistListing, SourceAdapter } from "../types.ts";
// type only: erased at run time, so youtubei.js is not imported with this module
import type * as Resolver from "./resolve.ts";
import type * as Playlists from "./playlist.ts";
import type { YtdlpRung } from "./ytdlp-rung.ts";

export type { YtdlpRung } from "./ytdlp-rung.ts";

let loaded: Promise<typeof Resolver> | undefined;
let loadedPlaylists: Promise<typeof Playlists> | undefined;

/** The resolver module, imported once; a failed import is retried by the next link. */
function loadResolver(): Promise<typeof Resolver> {
  if (!loaded) {
    loaded = import("./resolve.ts");
    loaded.catch(() => (loaded = undefined));
  }
  return loaded;
}

/** The playlist module (youtubei.js too), imported on the first playlist link. */
function loadPlaylists(): Promise<typeof Playlists> {
  if (!loadedPlaylists) {
    loadedPlaylists = import("./playlist.ts");
    loadedPlaylists.catch(() => (loadedPlaylists = undefined));
  }
  return loadedPlaylists;
}

/** An EngineError as a failed source result (the catalogue's words left out when unchanged). */
function failure(err: unknown): SourceResult<never> {
  if (!isEngineError(err)) throw err;
  const message = err.message !== ERRORS[err.code].message ? err.message : undefined;
  return { ok: false, code: err.code, detail: err.detail, ...(message ? { message } : {}) };
}

/** The YouTube source; `ytdlp`: the yt-dlp source, the ladder's last rung when YOUTUBE_CLIENTS lists it. */
export function createYouTubeSource(opts: { ytdlp?: YtdlpRung } = {}): SourceAdapter {
  return {
    platform: "youtube",
    matches: (link) => link.kind === "youtube",
    async resolve(link, ctx): Promise<SourceResult<ResolvedMedia>> {
      if (link.kind !== "youtube") return { ok: false, code: "link.unsupported" };
      try {
        const { resolveYouTube } = await loadResolver();
        return { ok: true, media: await resolveYouTube(link, ctx, opts.ytdlp) };
      } catch (err) {
        return failure(err);
      }
    },
    listsPlaylist: (link) => link.kind === "youtube",
    async listPlaylist(link, ctx): Promise<SourceResult<PlaylistListing>> {
      if (link.kind !== "youtube") return { ok: false, code: "link.unsupported" };
      try {
        const { listYouTubePlaylist } = await loadPlaylists();
        return { ok: true, media: await listYouTubePlaylist(link, ctx, ctx.playlistEnough) };
      } catch (err) {
        return failure(err);
      }
    },
  };
}

/** The YouTube source on a server without yt-dlp: the InnerTube clients only. */
export const youtubeSource: SourceAdapter = createYouTubeSource();
