/**
 * The YouTube source adapter. Its code and youtubei.js (tens of MB of resident memory once
 * imported) load on the first YouTube link this process resolves, not at start:
 * docs/decisions/019-small-footprint.md.
 */
import { ERRORS, isEngineError } from "../../errors.ts";
import type { ResolvedMedia, SourceResult } from "../../types.ts";
import type { SourceAdapter } from "../types.ts";
// type only: erased at run time, so youtubei.js is not imported with this module
import type * as Resolver from "./resolve.ts";

let loaded: Promise<typeof Resolver> | undefined;

/** The resolver module, imported once; a failed import is retried by the next link. */
function loadResolver(): Promise<typeof Resolver> {
  if (!loaded) {
    loaded = import("./resolve.ts");
    loaded.catch(() => (loaded = undefined));
  }
  return loaded;
}

export const youtubeSource: SourceAdapter = {
  platform: "youtube",
  matches: (link) => link.kind === "youtube",
  async resolve(link, ctx): Promise<SourceResult<ResolvedMedia>> {
    if (link.kind !== "youtube") return { ok: false, code: "link.unsupported" };
    try {
      const { resolveYouTube } = await loadResolver();
      return { ok: true, media: await resolveYouTube(link, ctx) };
    } catch (err) {
      if (!isEngineError(err)) throw err;
      const message = err.message !== ERRORS[err.code].message ? err.message : undefined;
      return { ok: false, code: err.code, detail: err.detail, ...(message ? { message } : {}) };
    }
  },
};
