/**
 * A playlist of another platform through yt-dlp's flat listing (`--flat-playlist -J`, issue 30
 * §3): the playlist's title and, per entry, the link, title, duration and thumbnail the playlist
 * page gives. An entry's link must be one our engine reads (parseLink): others are left out.
 */
import { z } from "zod";
import { parseLink, type PlaylistLink } from "#common/links.ts";
import { EngineError } from "../../errors.ts";
import type { PlaylistEntry, PlaylistListing } from "../types.ts";

const num = z.number().finite().nullish().catch(null);
const str = z.string().nullish().catch(null);

const entrySchema = z.object({
  _type: str,
  id: z.union([z.string(), z.number()]).transform(String).nullish().catch(null),
  url: str,
  webpage_url: str,
  title: str,
  duration: num,
  thumbnail: str,
  thumbnails: z.array(z.object({ url: str, width: num }).catch({ url: null, width: null })).nullish().catch(null),
});

const listingSchema = z.object({
  _type: str,
  title: str,
  playlist_count: num,
  entries: z.array(z.unknown()).nullish().catch(null),
});

/** the widest thumbnail up to ~480 px (a picker row), else any */
function thumbnailOf(entry: z.infer<typeof entrySchema>): string | null {
  const list = (entry.thumbnails ?? []).filter((t): t is { url: string; width: number | null | undefined } => typeof t.url === "string" && /^https?:\/\//.test(t.url));
  const fitting = list.filter((t) => (t.width ?? 0) <= 480).sort((a, b) => (b.width ?? 0) - (a.width ?? 0));
  return fitting[0]?.url ?? list[0]?.url ?? (entry.thumbnail && /^https?:\/\//.test(entry.thumbnail) ? entry.thumbnail : null);
}

/** yt-dlp's JSON for a playlist link onto our listing; a single video's JSON is no playlist. */
export function parsePlaylistInfo(stdout: string, link: Extract<PlaylistLink, { kind: "site" }>): PlaylistListing {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch (cause) {
    throw new EngineError("upstream.api_error", { detail: "yt-dlp printed no JSON for the playlist", cause });
  }
  const info = listingSchema.safeParse(raw);
  if (!info.success || info.data._type !== "playlist" || !info.data.entries) {
    throw new EngineError("video.not_found", { message: "This link is not a playlist we can list.", detail: "yt-dlp did not answer with a playlist" });
  }
  const entries: PlaylistEntry[] = [];
  for (const item of info.data.entries) {
    const parsed = entrySchema.safeParse(item);
    if (!parsed.success) continue;
    const e = parsed.data;
    const candidate = [e.webpage_url, e.url].find((u): u is string => typeof u === "string" && /^https?:\/\//i.test(u));
    const read = candidate ? parseLink(candidate) : null;
    // an entry we could not download by its link (no link, an unknown form) is no entry of ours
    if (!read?.ok) continue;
    entries.push({ url: read.url, title: e.title ?? "", durationSeconds: e.duration ?? null, thumbnail: thumbnailOf(e) });
  }
  return { title: info.data.title || "Playlist", url: link.url, entries, total: info.data.playlist_count ?? null };
}
