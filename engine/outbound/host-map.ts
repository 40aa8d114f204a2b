/**
 * OUTBOUND_HOST_MAP (DESIGN §4): `host=origin,…`, a host may start with `*.`. Every outbound
 * request to a mapped host goes to that origin with the same path and query. Used by tests and
 * the mock platform; mapped origins are operator-configured, hence trusted by the address guard.
 */
export interface HostMapEntry {
  /** lower-case host name, without the `*.` prefix for wildcards */
  host: string;
  wildcard: boolean;
  /** target origin, plus an optional path prefix (no trailing slash) */
  origin: string;
  pathPrefix: string;
}

export type HostMap = HostMapEntry[];

export function parseHostMap(raw: string | undefined): HostMap {
  if (!raw || raw.trim() === "") return [];
  const entries: HostMap = [];
  for (const part of raw.split(",")) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf("=");
    if (eq <= 0) throw new Error(`OUTBOUND_HOST_MAP entry "${item}" must look like host=origin`);
    let host = item.slice(0, eq).trim().toLowerCase();
    const target = item.slice(eq + 1).trim();
    const wildcard = host.startsWith("*.");
    if (wildcard) host = host.slice(2);
    if (!/^[a-z0-9.-]+$/.test(host)) throw new Error(`OUTBOUND_HOST_MAP host "${host}" is not a host name`);
    let url: URL;
    try {
      url = new URL(target);
    } catch (cause) {
      throw new Error(`OUTBOUND_HOST_MAP origin "${target}" is not a URL`, { cause });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Error(`OUTBOUND_HOST_MAP origin "${target}" must be http(s)`);
    }
    entries.push({ host, wildcard, origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, "") });
  }
  return entries;
}

/** The mapped URL for `url`, or null when its host is not mapped. Exact hosts win over wildcards. */
export function applyHostMap(map: HostMap, url: URL): URL | null {
  if (map.length === 0) return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  let best: HostMapEntry | undefined;
  for (const entry of map) {
    if (!entry.wildcard && entry.host === host) {
      best = entry;
      break;
    }
    if (entry.wildcard && host.endsWith(`.${entry.host}`) && (!best || entry.host.length > best.host.length)) {
      best = entry;
    }
  }
  if (!best) return null;
  return new URL(`${best.origin}${best.pathPrefix}${url.pathname}${url.search}`);
}
