/**
 * What the service worker does with each request, as pure functions the tests can call.
 * Downloads, API answers and signed links are never touched: the browser fetches them itself.
 */
export type RequestKind =
  /** a document navigation: network first, then the saved copy, then the offline page */
  | "page"
  /** React Router's route data (`*.data`) and route manifest (`/__manifest`) for client navigations */
  | "route-data"
  /** an image of ours (article covers, guides) */
  | "image"
  /** an image from another origin (a video's thumbnail) */
  | "thumbnail";

export interface RequestFacts {
  url: string;
  method: string;
  mode: string;
  destination: string;
}

/** Paths the worker never answers: the API (downloads, signed links, progress, billing), the worker itself. */
const NEVER = [/^\/api\//, /^\/service-worker\.js$/, /^\/billing\//, /^\/logout$/];

export function classifyRequest(req: RequestFacts, selfOrigin: string): RequestKind | null {
  if (req.method !== "GET") return null;
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.origin !== selfOrigin) return req.destination === "image" ? "thumbnail" : null;
  if (NEVER.some((re) => re.test(url.pathname))) return null;
  if (req.mode === "navigate") return "page";
  if (url.pathname.endsWith(".data") || url.pathname === "/__manifest") return "route-data";
  if (req.destination === "image") return "image";
  return null;
}

/**
 * A page (or its route data) may be kept for offline use only when it is a complete answer meant
 * for anyone: a 200 from our origin that no header marks private. Pages for a signed-in visitor
 * (`private, no-store`) and any error page are never kept.
 */
export function isStorablePage(res: { status: number; type: string; headers: { get(name: string): string | null } }): boolean {
  if (res.status !== 200 || (res.type !== "basic" && res.type !== "default")) return false;
  const cacheControl = (res.headers.get("cache-control") ?? "").toLowerCase();
  if (/\b(no-store|private)\b/.test(cacheControl)) return false;
  if (res.headers.get("vary")?.includes("*")) return false;
  return true;
}

/**
 * The requests that end a session: the logout form (a document post, or React Router's `.data`
 * post when JavaScript runs) and the auth library's sign-out endpoint called from a script.
 */
const SIGN_OUT = new Set(["/logout", "/logout.data", "/api/auth/sign-out"]);

export function isSignOutRequest(req: { url: string; method: string }, selfOrigin: string): boolean {
  if (req.method !== "POST") return false;
  const url = new URL(req.url);
  return url.origin === selfOrigin && SIGN_OUT.has(url.pathname);
}

/** The shell page standing in for a URL while offline: the same path, whatever its query (`/?url=…` → `/`). */
export function shellPathFor(url: string, shellPages: readonly string[]): string | null {
  const { pathname } = new URL(url);
  return shellPages.includes(pathname) ? pathname : null;
}
