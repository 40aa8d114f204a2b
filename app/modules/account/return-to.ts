/**
 * Where to go after logging in (`?returnTo=`). Only a path on this site: it must start with a
 * single "/" (not "//" or "/\", which browsers read as another host), carry no control
 * characters or backslashes, and stay short; the same holds for the path once dot segments are
 * resolved (`/.//evil`, `/%2e%2e//evil` become `//evil`), which is what is returned. Anything
 * else falls back to the dashboard.
 */
export const DEFAULT_AFTER_LOGIN = "/dashboard";

export function safeReturnTo(value: string | null | undefined): string {
  if (!value || value.length > 1024) return DEFAULT_AFTER_LOGIN;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return DEFAULT_AFTER_LOGIN;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return DEFAULT_AFTER_LOGIN;
  // resolved against a dummy origin, it must stay on that origin
  try {
    const url = new URL(value, "http://same.invalid");
    if (url.origin !== "http://same.invalid") return DEFAULT_AFTER_LOGIN;
    const normalised = url.pathname + url.search + url.hash;
    return isOneSlashPath(normalised) ? normalised : DEFAULT_AFTER_LOGIN;
  } catch {
    return DEFAULT_AFTER_LOGIN;
  }
}

/**
 * A path a browser cannot read as another host: one "/" and then neither a slash nor a
 * backslash, written plainly or percent-encoded (a proxy or a later decode must not make one).
 */
function isOneSlashPath(path: string): boolean {
  return /^\/(?![/\\]|%2f|%5c)/i.test(path);
}

/** The login URL a guard redirects to: back here afterwards, with the notice to show. */
export function loginUrlFor(returnTo: string, notice?: string): string {
  const params = new URLSearchParams({ returnTo: safeReturnTo(returnTo) });
  if (notice) params.set("notice", notice);
  return `/login?${params.toString()}`;
}
