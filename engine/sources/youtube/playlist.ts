/**
 * Listing a YouTube playlist (issue 30 §3): InnerTube `/browse` for `VL<list id>` (WEB), then its
 * continuations until enough entries are known. The answer is read as raw JSON: every
 * `playlistVideoRenderer` in document order is one entry, wherever the page nests it, so a new
 * wrapper around the list does not lose it. Loaded with the resolver (see ./index.ts).
 */
import type { PlaylistLink } from "#common/links.ts";
import { youtubeWatchUrl } from "#common/links.ts";
import { EngineError, isEngineError } from "../../errors.ts";
import type { PlaylistEntry, PlaylistListing, SourceContext } from "../types.ts";
import { rewriteBrowserUrl } from "./image-hosts.ts";
import { getInnertube, type RawResponse } from "./innertube.ts";

type Json = Record<string, unknown>;

/** pages fetched at most for one listing (YouTube sends 100 entries a page) */
const MAX_PAGES = 20;

const NOT_FOUND = "This playlist does not exist, or it is private.";

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null;
}

/** InnerTube text: `{ simpleText }` or `{ runs: [{ text }] }`. */
export function textOf(value: unknown): string {
  if (!isObject(value)) return "";
  if (typeof value.simpleText === "string") return value.simpleText;
  if (typeof value.content === "string") return value.content;
  if (Array.isArray(value.runs)) return value.runs.map((r) => (isObject(r) && typeof r.text === "string" ? r.text : "")).join("");
  return "";
}

/** Every object under `key` in `root`, in document order (depth-first). */
function collect(root: unknown, key: string, out: Json[] = []): Json[] {
  if (Array.isArray(root)) {
    for (const item of root) collect(item, key, out);
  } else if (isObject(root)) {
    for (const [k, v] of Object.entries(root)) {
      if (k === key && isObject(v)) out.push(v);
      else collect(v, key, out);
    }
  }
  return out;
}

/** a thumbnail near 320 px wide (the picker's row), else the largest there is */
function thumbnailOf(renderer: Json): string | null {
  const list = isObject(renderer.thumbnail) && Array.isArray(renderer.thumbnail.thumbnails) ? renderer.thumbnail.thumbnails.filter(isObject) : [];
  const sorted = list.filter((t) => typeof t.url === "string").sort((a, b) => Number(a.width ?? 0) - Number(b.width ?? 0));
  const pick = sorted.find((t) => Number(t.width ?? 0) >= 320) ?? sorted.at(-1);
  return pick ? (pick.url as string).replace(/^\/\//, "https://") : null;
}

/** The entries of one page: each `playlistVideoRenderer` with a video id. */
export function entriesOf(page: unknown, hostMap?: string): PlaylistEntry[] {
  return collect(page, "playlistVideoRenderer").flatMap((r) => {
    if (typeof r.videoId !== "string") return [];
    const seconds = Number.parseInt(String(r.lengthSeconds ?? ""), 10);
    const thumbnail = thumbnailOf(r);
    return [
      {
        url: youtubeWatchUrl(r.videoId),
        title: textOf(r.title),
        durationSeconds: Number.isFinite(seconds) ? seconds : null,
        thumbnail: thumbnail ? rewriteBrowserUrl(thumbnail, hostMap) : null,
      },
    ];
  });
}

/** the token of the next page, if the page ends with one */
export function continuationOf(page: unknown): string | null {
  for (const item of collect(page, "continuationItemRenderer")) {
    const token = collect(item, "continuationCommand")[0]?.token;
    if (typeof token === "string" && token) return token;
  }
  return null;
}

/** the playlist's title: its metadata, or the header of either layout */
export function titleOf(page: unknown): string {
  if (!isObject(page)) return "";
  const meta = collect(page.metadata, "playlistMetadataRenderer")[0];
  if (meta && typeof meta.title === "string" && meta.title) return meta.title;
  const header = collect(page.header, "playlistHeaderRenderer")[0];
  if (header && textOf(header.title)) return textOf(header.title);
  const pageHeader = collect(page.header, "pageHeaderRenderer")[0];
  return typeof pageHeader?.pageTitle === "string" ? pageHeader.pageTitle : "";
}

/** "12 videos", "1,234 videos": the count the header or the sidebar states */
export function totalOf(page: unknown): number | null {
  if (!isObject(page)) return null;
  const texts = [
    ...collect(page.header, "playlistHeaderRenderer").flatMap((h) => [textOf(h.numVideosText), ...(Array.isArray(h.stats) ? [textOf(h.stats[0])] : [])]),
    ...collect(page.sidebar, "playlistSidebarPrimaryInfoRenderer").flatMap((s) => (Array.isArray(s.stats) ? [textOf(s.stats[0])] : [])),
  ];
  for (const t of texts) {
    const m = /^\s*([\d,.\s]+)\s*video/i.exec(t) ?? /^\s*([\d,]+)\s*$/.exec(t);
    if (m) return Number.parseInt(m[1]!.replace(/\D/g, ""), 10);
  }
  return null;
}

/** An ERROR alert ("The playlist does not exist.") means there is nothing to list. */
function alertOf(page: unknown): string | null {
  if (!isObject(page)) return null;
  for (const alert of collect(page.alerts, "alertRenderer")) {
    if (alert.type === "ERROR") return textOf(alert.text) || "error alert";
  }
  return null;
}

async function browse(ctx: SourceContext, payload: Json, what: string): Promise<unknown> {
  const yt = await getInnertube(ctx.fetch);
  try {
    const res = (await yt.actions.execute("/browse", payload as never)) as unknown as RawResponse;
    return res.data;
  } catch (err) {
    if (isEngineError(err)) throw err;
    const message = err instanceof Error ? err.message : String(err);
    const status = /status code (\d{3})/.exec(message)?.[1];
    // InnerTube answers an unknown or private list with 400/404 on some clients
    if (status === "400" || status === "404") throw new EngineError("video.not_found", { message: NOT_FOUND, detail: `${what}: ${message}`, cause: err });
    if (status === "429") throw new EngineError("video.bot_check", { detail: `${what}: ${message}`, cause: err });
    throw new EngineError("upstream.fetch_failed", { detail: `${what}: ${message}`, cause: err });
  }
}

/**
 * The playlist's title and entries, in order. Pages are followed until `enough` entries are
 * known (the caller's cap plus one tells it a playlist is longer than the cap) or none are left.
 */
export async function listYouTubePlaylist(link: Extract<PlaylistLink, { kind: "youtube" }>, ctx: SourceContext, enough = Number.POSITIVE_INFINITY): Promise<PlaylistListing> {
  const hostMap = ctx.config.hostMap;
  const first = await browse(ctx, { browseId: `VL${link.listId}` }, "browse playlist");
  const alert = alertOf(first);
  const entries = entriesOf(first, hostMap);
  if (alert && entries.length === 0) throw new EngineError("video.not_found", { message: NOT_FOUND, detail: `browse playlist: ${alert}` });
  const title = titleOf(first);
  let total = totalOf(first);
  let token = continuationOf(first);
  for (let page = 1; token && entries.length < enough && page < MAX_PAGES; page++) {
    if (ctx.signal?.aborted) throw new EngineError("download.failed", { detail: "nobody waits for this listing any more" });
    const next = await browse(ctx, { continuation: token }, "browse playlist continuation");
    const more = entriesOf(next, hostMap);
    if (more.length === 0) break;
    entries.push(...more);
    token = continuationOf(next);
  }
  // a listing read to its end knows its length better than a header's count (hidden videos)
  if (!token) total = entries.length;
  if (entries.length === 0 && !title) throw new EngineError("video.not_found", { message: NOT_FOUND, detail: "browse playlist: no entries and no title" });
  return { title: title || "YouTube playlist", url: link.url, entries, total };
}
