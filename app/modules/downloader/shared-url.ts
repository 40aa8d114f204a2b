/** Longer values are not links anyone shares; the parser refuses them too. */
const MAX_SHARED_URL_LENGTH = 4096;

/**
 * `/?url=…` hands a link to the form (links, bookmarks, the browser's share menu). Share targets
 * may put the link in `text` instead, next to other words: the first http(s) link is taken.
 */
export function readSharedUrl(params: URLSearchParams): string | null {
  for (const key of ["url", "text"]) {
    const raw = params.get(key)?.trim();
    if (!raw || raw.length > MAX_SHARED_URL_LENGTH) continue;
    if (key === "url") return raw;
    const link = /https?:\/\/\S+/i.exec(raw)?.[0];
    if (link) return link;
  }
  return null;
}
