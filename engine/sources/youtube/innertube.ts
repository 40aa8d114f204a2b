/**
 * youtubei.js wired to our outbound fetch. youtubei.js builds the InnerTube client contexts
 * (names, versions, user agents, headers) and parses responses; every request it makes goes
 * through `ctx.fetch` (host map, SSRF guard, timeouts, size caps). The session is generated
 * locally and neither the player script nor the InnerTube config is fetched: the clients on the
 * default path return direct stream URLs, so no script has to run.
 */
import { Innertube, YT, Constants } from "youtubei.js";
import type { Types } from "youtubei.js";
import { EngineError, isEngineError } from "../../errors.ts";
import type { OutboundFetch } from "../../outbound/outbound-fetch.ts";

/** InnerTube JSON (player: ~150 KB, next: ~400 KB) never legitimately reaches this. */
const METADATA_MAX_BYTES = 8 * 1024 * 1024;

/** Client names accepted in `YOUTUBE_CLIENTS` (those youtubei.js can build a context for). */
export const SUPPORTED_YOUTUBE_CLIENTS: readonly string[] = Constants.SUPPORTED_CLIENTS;

/** See docs/decisions/002-youtube-clients.md for the evidence behind this order. */
export const DEFAULT_YOUTUBE_CLIENTS = ["VISIONOS", "ANDROID"] as const;

type FetchFunction = NonNullable<Types.InnerTubeConfig["fetch"]>;

/** youtubei.js calls `fetch(Request, init)`; ours takes `(url, init)`. */
export function toYoutubeiFetch(fetch: OutboundFetch): FetchFunction {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : input instanceof URL ? input.href : String(input);
    const headers = new Headers(init?.headers ?? request?.headers);
    const method = init?.method ?? request?.method ?? "GET";
    let body = init?.body ?? undefined;
    if (body === undefined && request && method !== "GET" && method !== "HEAD") body = await request.text();
    return fetch(url, { method, headers, body, redirect: "follow", maxBytes: METADATA_MAX_BYTES, signal: init?.signal ?? undefined });
  }) as FetchFunction;
}

const sessions = new WeakMap<OutboundFetch, Promise<Innertube>>();

/** One locally generated session per outbound fetch function (no network at creation). */
export function getInnertube(fetch: OutboundFetch): Promise<Innertube> {
  let session = sessions.get(fetch);
  if (!session) {
    session = Innertube.create({
      fetch: toYoutubeiFetch(fetch),
      retrieve_player: false,
      generate_session_locally: true,
      retrieve_innertube_config: false,
      enable_session_cache: false,
      lang: "en",
      location: "US",
    });
    sessions.set(fetch, session);
    session.catch(() => sessions.delete(fetch));
  }
  return session;
}

export interface RawResponse {
  success: boolean;
  status_code: number;
  data: unknown;
}

/** youtubei.js wraps non-2xx answers in InnertubeError; ours (EngineError) pass unchanged. */
function upstreamError(err: unknown, what: string): EngineError {
  if (isEngineError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  const status = /status code (\d{3})/.exec(message)?.[1];
  if (status === "429") return new EngineError("video.bot_check", { detail: `${what}: ${message}`, cause: err });
  return new EngineError("upstream.fetch_failed", { detail: `${what}: ${message}`, cause: err });
}

/**
 * POST /youtubei/v1/player as the given client; returns the raw JSON. `poToken`: a proof-of-origin
 * token bound to the video, sent where yt-dlp and youtubei.js send it (`serviceIntegrityDimensions`).
 */
export async function fetchPlayer(yt: Innertube, videoId: string, client: string, signatureTimestamp?: number, poToken?: string): Promise<unknown> {
  try {
    const res = (await yt.actions.execute("/player", {
      videoId,
      racyCheckOk: true,
      contentCheckOk: true,
      playbackContext: {
        contentPlaybackContext: {
          vis: 0,
          splay: false,
          lactMilliseconds: "-1",
          // only on the decipher path: ciphers must match the player script version
          ...(signatureTimestamp ? { signatureTimestamp } : {}),
        },
      },
      ...(poToken ? { serviceIntegrityDimensions: { poToken } } : {}),
      client: client as Types.InnerTubeClient,
    })) as unknown as RawResponse;
    return res.data;
  } catch (err) {
    throw upstreamError(err, `player (${client})`);
  }
}

/** POST /youtubei/v1/next (WEB): likes, channel avatar, subscriber count, publish date. */
export async function fetchNext(yt: Innertube, videoId: string): Promise<unknown> {
  try {
    const res = (await yt.actions.execute("/next", { videoId, racyCheckOk: true, contentCheckOk: true })) as unknown as RawResponse;
    return res.data;
  } catch (err) {
    throw upstreamError(err, "next");
  }
}

/** youtubei.js's parsed view of a player (+ next) response. */
export function parseVideoInfo(yt: Innertube, player: unknown, next?: unknown): YT.VideoInfo {
  const wrap = (data: unknown) => ({ success: true, status_code: 200, data }) as never;
  return new YT.VideoInfo(next === undefined ? [wrap(player)] : [wrap(player), wrap(next)], yt.actions, "");
}
