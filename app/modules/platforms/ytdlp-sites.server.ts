import type { ExtractorList } from "#engine/sources/ytdlp/extractors.ts";
import type { YtdlpSitesView } from "./ytdlp-sites-section.tsx";

/** Most extractors a search shows: a one-letter search must not list half of them. */
export const MAX_MATCHES = 100;
/** Longer searches are cut: no extractor name comes near. */
const MAX_QUERY = 60;

/** A site is what an extractor's name says before its first colon (`youtube:tab` → `youtube`). */
function siteOf(name: string): string {
  return name.split(":")[0]!;
}

/**
 * The supported-sites page's view of what this server's yt-dlp reads (issue 32 §6): its sites
 * (extractors grouped by the name before the colon), and for a search (`?site=`) the extractors
 * whose names contain it, so the list works without JavaScript and a phone never gets it whole.
 */
export function ytdlpSitesView(list: ExtractorList, search: string | null): YtdlpSitesView {
  if (list.state !== "ready") return list;
  const bySite = new Map<string, { name: string; broken: boolean }>();
  for (const e of list.extractors) {
    const name = siteOf(e.name);
    const key = name.toLowerCase();
    const site = bySite.get(key);
    // a site is marked broken only when every one of its extractors is
    if (!site) bySite.set(key, { name, broken: e.broken });
    else site.broken &&= e.broken;
  }
  const sites = [...bySite.values()].sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }));
  const query = (search ?? "").trim().slice(0, MAX_QUERY);
  const needle = query.toLowerCase();
  const found = needle ? list.extractors.filter((e) => e.name.toLowerCase().includes(needle)) : [];
  return {
    state: "ready",
    version: list.version,
    extractorCount: list.extractors.length,
    sites,
    search: needle ? { query, matches: found.slice(0, MAX_MATCHES), total: found.length } : null,
  };
}
