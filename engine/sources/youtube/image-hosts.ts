/**
 * Image and embed URLs in video details are loaded by the user's browser, not by our server, so
 * OUTBOUND_HOST_MAP (which only steers our own outbound requests) does not reach them. In a mock
 * setup (MOCKS=true, tests) the real hosts are mapped to a local origin: rewriting these URLs to
 * that origin lets the browser load the thumbnails and the preview player the mock serves. Only
 * image and embed hosts are rewritten, and only when the host map names them; otherwise the URL
 * is untouched.
 */
import { applyHostMap, parseHostMap } from "../../outbound/host-map.ts";

/** Hosts YouTube serves video thumbnails, channel avatars and the no-cookie player from. */
const BROWSER_HOST = /^(i\d?\.ytimg\.com|s\.ytimg\.com|[a-z0-9-]+\.ggpht\.com|yt\d\.googleusercontent\.com|www\.youtube-nocookie\.com)$/i;

export function rewriteBrowserUrl(url: string, hostMap: string | undefined): string {
  if (!url || !hostMap) return url;
  let parsed: URL;
  try {
    parsed = new URL(url.startsWith("//") ? `https:${url}` : url);
  } catch {
    return url; // not a URL we can rewrite; the browser gets it as the platform sent it
  }
  if (!BROWSER_HOST.test(parsed.hostname)) return url;
  return applyHostMap(parseHostMap(hostMap), parsed)?.href ?? url;
}
