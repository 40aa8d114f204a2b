/**
 * Tries the configured InnerTube clients in order and returns the first player response with
 * streams we can fetch directly. A response whose adaptive formats carry no URL (SABR-only) moves
 * on to the next client. One whose formats carry only a signature cipher (WEB family) is
 * deciphered with the player script in a sandbox (decipher.ts); if that fails it also moves on.
 * If every client answers without usable adaptive formats, the best response that still has a
 * direct progressive stream (itag 18, 360p) is used rather than failing the video outright.
 */
import type { Innertube, YT } from "youtubei.js";
import type { Logger } from "pino";
import { EngineError, isEngineError } from "../../errors.ts";
import type { OutboundFetch } from "../../outbound/outbound-fetch.ts";
import type { UpstreamStream } from "../../types.ts";
import { decipherFormats, getPlayer, needsDecipher } from "./decipher.ts";
import { fetchPlayer, parseVideoInfo } from "./innertube.ts";
import { classifyPlayability } from "./playability.ts";
import { hasDirectUrl, toUpstreamStream, type InnertubeFormat } from "./streams.ts";

/** Verdicts that another client (or a second request) may not repeat. */
const RETRYABLE = new Set(["video.bot_check", "video.age_restricted", "video.unavailable"]);

export interface PlayerCandidate {
  client: string;
  player: unknown;
  info: YT.VideoInfo;
  streams: UpstreamStream[];
  /** true when the URLs came out of the sandboxed player script */
  deciphered?: boolean;
}

function formatsOf(info: YT.VideoInfo) {
  const muxed = (info.streaming_data?.formats ?? []) as unknown as InnertubeFormat[];
  const adaptive = (info.streaming_data?.adaptive_formats ?? []) as unknown as InnertubeFormat[];
  return { muxed, adaptive, all: [...muxed, ...adaptive] };
}

function streamsOf(formats: InnertubeFormat[]): UpstreamStream[] {
  return formats.map(toUpstreamStream).filter((s): s is UpstreamStream => s !== null);
}

/** Player script → request again with its signature timestamp → decipher every URL. */
async function decipherCandidate(opts: { yt: Innertube; fetch: OutboundFetch; id: string; client: string }): Promise<PlayerCandidate> {
  const { yt, fetch, id, client } = opts;
  const script = await getPlayer(fetch);
  const body = await fetchPlayer(yt, id, client, script.signature_timestamp);
  const verdict = classifyPlayability(body);
  if (verdict) throw new EngineError(verdict.code, { detail: `${client} (with player script): ${verdict.reason}` });
  const info = parseVideoInfo(yt, body);
  const { all } = formatsOf(info);
  await decipherFormats(all as Parameters<typeof decipherFormats>[0], script);
  return { client, player: body, info, streams: streamsOf(all), deciphered: true };
}

export async function pickPlayer(opts: {
  yt: Innertube;
  fetch: OutboundFetch;
  id: string;
  clients: readonly string[];
  logger: Logger;
}): Promise<PlayerCandidate> {
  const { yt, fetch, id, clients, logger } = opts;
  let fallback: PlayerCandidate | undefined;
  let firstError: EngineError | undefined;
  for (const client of clients) {
    let body: unknown;
    try {
      body = await fetchPlayer(yt, id, client);
    } catch (err) {
      if (!isEngineError(err)) throw err;
      logger.warn({ err, client, videoId: id }, "youtube: player request failed; trying the next client");
      firstError ??= err;
      continue;
    }
    const verdict = classifyPlayability(body);
    if (verdict) {
      const error = new EngineError(verdict.code, { detail: `${client}: ${verdict.reason}` });
      if (!verdict.retryable) throw error;
      logger.warn({ client, videoId: id, reason: verdict.reason }, "youtube: client refused; trying the next client");
      firstError ??= error;
      continue;
    }
    const info = parseVideoInfo(yt, body);
    const { adaptive, all } = formatsOf(info);
    const candidate: PlayerCandidate = { client, player: body, info, streams: streamsOf(all) };
    if (adaptive.length > 0 && !adaptive.some(hasDirectUrl)) {
      if (adaptive.some(needsDecipher)) {
        try {
          const deciphered = await decipherCandidate({ yt, fetch, id, client });
          if (deciphered.streams.some((s) => s.kind !== "progressive")) return deciphered;
          logger.info({ client, videoId: id }, "youtube: deciphered formats gave no adaptive streams; trying the next client");
        } catch (err) {
          // A final verdict about the video ends the resolve as on the first request.
          if (isEngineError(err) && err.code.startsWith("video.") && !RETRYABLE.has(err.code)) throw err;
          // Anything else (script not found or changed, sandbox timeout, refused request) means
          // this client did not work; it is logged and the next client gets its turn.
          if (isEngineError(err)) firstError ??= err;
          logger.warn({ err, client, videoId: id }, "youtube: deciphering failed; trying the next client");
        }
      } else {
        logger.info({ client, videoId: id, directStreams: candidate.streams.length }, "youtube: adaptive formats have no URL (SABR-only); trying the next client");
      }
      if (candidate.streams.length > (fallback?.streams.length ?? 0)) fallback = candidate;
      continue;
    }
    if (candidate.streams.length === 0) {
      logger.info({ client, videoId: id }, "youtube: no direct streams; trying the next client");
      continue;
    }
    return candidate;
  }
  if (fallback) {
    logger.warn({ client: fallback.client, videoId: id }, "youtube: no client gave adaptive URLs; using the progressive streams");
    return fallback;
  }
  throw firstError ?? new EngineError("video.no_formats", { detail: `no direct streams from ${clients.join(", ")}` });
}
