/**
 * Proof-of-origin tokens from an external provider (issue 32 §2): `YOUTUBE_POT_PROVIDER_URL`
 * names an HTTP server speaking bgutil-ytdlp-pot-provider's protocol (1.x): `POST /get_pot` with
 * `{"content_binding": "<video id>"}` answers `{"poToken", "contentBinding", "expiresAt"}`. Web
 * tokens are bound to the video id, so one per video, kept until the provider says it expires.
 *
 * The provider is operator configuration, trusted like `OUTBOUND_HOST_MAP` targets: it usually
 * listens on loopback or a container network, which the SSRF guard of our outbound fetch would
 * refuse, so it is asked with a plain fetch (http(s) only, no redirects). A provider that is
 * down or slow never holds a download for long: each request has a short timeout, a failure
 * rests the provider for a while, and the ladder goes on without a token as it would without one.
 */
import type { Logger } from "pino";
import { z } from "zod";

/** What the ladder asks: a token bound to this video id, or none (no provider, or it failed). */
export interface PoTokenSource {
  tokenFor(videoId: string): Promise<string | undefined>;
}

/** bgutil's default TOKEN_TTL (6 h), for an answer without `expiresAt` */
const DEFAULT_TTL_MS = 6 * 3600 * 1000;
/** a token this close to its expiry is asked for again: a download started now runs a while */
const EXPIRY_MARGIN_MS = 60 * 1000;
/** minting a BotGuard token takes the provider a second or two; longer than this, we go on without */
const DEFAULT_TIMEOUT_MS = 4000;
/** after a failure, resolves go on without asking for this long (no timeout paid per resolve) */
const DEFAULT_REST_MS = 30 * 1000;
/** tokens kept at once: one per recently resolved video */
const DEFAULT_MAX_ENTRIES = 1000;

const answerSchema = z.object({
  poToken: z.string().min(1),
  contentBinding: z.string().optional(),
  expiresAt: z.union([z.string(), z.number()]).optional(),
});

/** The provider's address for logs: origin and path, never a user or password it may carry. */
export function providerForLog(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return "(unreadable URL)";
  }
}

/** `<base>/get_pot`, keeping a path prefix the provider may sit under */
function endpointOf(baseUrl: string, route: string): URL {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("the token provider must be an http(s) URL");
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${route}`;
  url.search = "";
  url.hash = "";
  return url;
}

function expiryOf(expiresAt: string | number | undefined, now: number): number {
  const at = typeof expiresAt === "number" ? expiresAt : expiresAt ? Date.parse(expiresAt) : NaN;
  return Number.isFinite(at) ? at : now + DEFAULT_TTL_MS;
}

export function createPoTokenProvider(opts: {
  baseUrl: string;
  logger: Logger;
  /** injected in tests; the global fetch otherwise (see the header: no SSRF guard for the operator's provider) */
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  timeoutMs?: number;
  restMs?: number;
  maxEntries?: number;
}): PoTokenSource {
  const { logger } = opts;
  const doFetch = opts.fetch ?? globalThis.fetch;
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const restMs = opts.restMs ?? DEFAULT_REST_MS;
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const endpoint = endpointOf(opts.baseUrl, "get_pot");
  // credentials in the URL go in the Authorization header; fetch refuses URLs that carry them
  const authorization = endpoint.username || endpoint.password ? `Basic ${Buffer.from(`${decodeURIComponent(endpoint.username)}:${decodeURIComponent(endpoint.password)}`).toString("base64")}` : undefined;
  endpoint.username = "";
  endpoint.password = "";
  const provider = providerForLog(opts.baseUrl);

  // insertion order is use order (a hit is moved to the end): the first key is the least recently used
  const cache = new Map<string, { token: string; expiresAt: number }>();
  const pending = new Map<string, Promise<string | undefined>>();
  let restingUntil = 0;

  async function ask(videoId: string): Promise<string | undefined> {
    const started = now();
    try {
      const res = await doFetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ content_binding: videoId }),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
      const answer = answerSchema.parse(JSON.parse(text));
      if (answer.contentBinding !== undefined && answer.contentBinding !== videoId) {
        throw new Error(`token bound to ${answer.contentBinding.slice(0, 40)}, not to the video asked`);
      }
      const expiresAt = expiryOf(answer.expiresAt, now());
      cache.set(videoId, { token: answer.poToken, expiresAt });
      while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      logger.debug({ videoId, provider, ms: now() - started }, "youtube: proof-of-origin token from the provider");
      return answer.poToken;
    } catch (err) {
      restingUntil = now() + restMs;
      logger.warn(
        { videoId, provider, restSeconds: Math.round(restMs / 1000), error: err instanceof Error ? err.message : String(err) },
        "youtube: the proof-of-origin token provider failed; resolving without tokens for a while",
      );
      return undefined;
    }
  }

  return {
    tokenFor(videoId) {
      const hit = cache.get(videoId);
      if (hit) {
        cache.delete(videoId);
        if (hit.expiresAt - EXPIRY_MARGIN_MS > now()) {
          cache.set(videoId, hit);
          return Promise.resolve(hit.token);
        }
      }
      if (now() < restingUntil) return Promise.resolve(undefined);
      // concurrent resolves of one video share one request
      let request = pending.get(videoId);
      if (!request) {
        request = ask(videoId).finally(() => pending.delete(videoId));
        pending.set(videoId, request);
      }
      return request;
    },
  };
}

/** One provider (and so one token cache) per engine configuration. */
const providers = new WeakMap<object, PoTokenSource>();

/** The configured provider, or undefined when `YOUTUBE_POT_PROVIDER_URL` is unset. */
export function poTokenSourceFor(youtube: { potProviderUrl?: string }, logger: Logger): PoTokenSource | undefined {
  if (!youtube.potProviderUrl) return undefined;
  let source = providers.get(youtube);
  if (!source) {
    source = createPoTokenProvider({ baseUrl: youtube.potProviderUrl, logger });
    providers.set(youtube, source);
  }
  return source;
}
