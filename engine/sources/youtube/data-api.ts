/**
 * Video details from the YouTube Data API v3, exactly the two calls of spec §7:
 *   GET {base}/videos?id&part=snippet,contentDetails,statistics&key
 *   GET {base}/channels?id&part=snippet,statistics,brandingSettings&key
 * No items → "Video not found"; a non-OK answer → "API error: {service message or status text}";
 * a failed channel call only degrades the channel fields (empty thumbnail, not monetized,
 * "Unknown" subscribers). The base URL is operator configuration, hence a trusted destination.
 */
import type { Logger } from "pino";
import { youtubeWatchUrl } from "#common/links.ts";
import {
  formatCount,
  formatDuration,
  formatPublishedDate,
  formatSubscribers,
  formatViews,
  isMonetized,
  parseCount,
  parseIsoDuration,
  pickBestThumbnail,
  truncateDescription,
} from "../../details/format.ts";
import { EngineError, isEngineError } from "../../errors.ts";
import type { OutboundFetch } from "../../outbound/outbound-fetch.ts";
import type { Thumbnail, VideoDetails } from "../../types.ts";
import { embedUrlFor } from "./details-innertube.ts";
import { thumbnailsFromMap } from "./thumbnails.ts";

const MAX_BYTES = 2 * 1024 * 1024;

interface ApiThumbs {
  [name: string]: { url?: string; width?: number; height?: number } | undefined;
}
interface VideoItem {
  id?: string;
  snippet?: {
    publishedAt?: string;
    channelId?: string;
    title?: string;
    description?: string;
    thumbnails?: ApiThumbs;
    channelTitle?: string;
    tags?: string[];
  };
  contentDetails?: { duration?: string };
  statistics?: { viewCount?: string; likeCount?: string };
}
interface ChannelItem {
  snippet?: { thumbnails?: ApiThumbs };
  statistics?: { subscriberCount?: string; viewCount?: string; hiddenSubscriberCount?: boolean };
}

function apiUrl(base: string, resource: string, params: Record<string, string>): string {
  const url = new URL(`${base.replace(/\/+$/, "")}/${resource}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/** The service's own message (`{"error":{"message"}}`) or the HTTP status text. */
async function apiError(res: Response): Promise<EngineError> {
  let message = "";
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    if (typeof body?.error?.message === "string") message = body.error.message;
  } catch {
    // not JSON: the status text below is the best we have
  }
  message ||= res.statusText || `HTTP ${res.status}`;
  return new EngineError("upstream.api_error", { message: `API error: ${message}`, detail: `status ${res.status}` });
}

async function getJson<T>(fetch: OutboundFetch, url: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { trusted: true, maxBytes: MAX_BYTES, headers: { accept: "application/json" } });
  } catch (err) {
    if (isEngineError(err) && err.code !== "upstream.fetch_failed") throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new EngineError("upstream.fetch_failed", { message: `Failed to fetch video details: ${message}`, cause: err });
  }
  if (!res.ok) throw await apiError(res);
  return (await res.json()) as T;
}

export interface DataApiDetails {
  details: VideoDetails;
  thumbnails: Thumbnail[];
}

export async function detailsFromDataApi(opts: {
  id: string;
  apiKey: string;
  apiBaseUrl: string;
  fetch: OutboundFetch;
  logger: Logger;
}): Promise<DataApiDetails> {
  const { id, apiKey, apiBaseUrl, fetch, logger } = opts;
  const videos = await getJson<{ items?: VideoItem[] }>(
    fetch,
    apiUrl(apiBaseUrl, "videos", { id, part: "snippet,contentDetails,statistics", key: apiKey }),
  );
  const item = videos.items?.[0];
  if (!item) throw new EngineError("video.not_found", { detail: "Data API: no items" });
  const snippet = item.snippet ?? {};

  let channel: ChannelItem | undefined;
  if (snippet.channelId) {
    try {
      const channels = await getJson<{ items?: ChannelItem[] }>(
        fetch,
        apiUrl(apiBaseUrl, "channels", { id: snippet.channelId, part: "snippet,statistics,brandingSettings", key: apiKey }),
      );
      channel = channels.items?.[0];
      if (!channel) logger.warn({ channelId: snippet.channelId }, "Data API: channel not found; channel fields unknown");
    } catch (err) {
      // Spec §7: any channel failure leaves an empty thumbnail, not monetized, "Unknown".
      logger.warn({ err, channelId: snippet.channelId }, "Data API: channel lookup failed; channel fields unknown");
    }
  }

  const hidden = channel?.statistics?.hiddenSubscriberCount === true;
  const subscribers = hidden ? null : parseCount(channel?.statistics?.subscriberCount);
  // Spec §7 reads the channel's viewCount for the monetization rule.
  const channelViews = parseCount(channel?.statistics?.viewCount);
  const videoViews = parseCount(item.statistics?.viewCount) ?? 0;
  const likes = parseCount(item.statistics?.likeCount);
  const seconds = parseIsoDuration(item.contentDetails?.duration);
  const thumbnails = thumbnailsFromMap(snippet.thumbnails ?? {});

  return {
    thumbnails,
    details: {
      id,
      title: snippet.title ?? "",
      description: truncateDescription(snippet.description),
      thumbnail: pickBestThumbnail(snippet.thumbnails),
      channelTitle: snippet.channelTitle ?? "",
      channelId: snippet.channelId ?? "",
      channelThumbnail: channel?.snippet?.thumbnails?.default?.url ?? "",
      isMonetized: channel ? isMonetized(subscribers, channelViews) : false,
      subscriberCount: formatSubscribers(subscribers),
      publishedAt: formatPublishedDate(snippet.publishedAt),
      duration: formatDuration(seconds),
      viewCount: formatViews(videoViews),
      likeCount: likes === null ? "Unknown" : formatCount(likes),
      tags: snippet.tags ?? [],
      downloadUrl: youtubeWatchUrl(id),
      platform: "youtube",
      durationSeconds: seconds,
      embedUrl: embedUrlFor(id),
    },
  };
}
