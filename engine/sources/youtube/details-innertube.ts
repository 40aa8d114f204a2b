/**
 * Video details from InnerTube: the player response gives title, description, duration, views,
 * keywords and channel id/name; the `next` response (when it could be fetched) adds likes,
 * subscriber count, channel avatar and the publish date. What neither gives stays "Unknown"/empty.
 */
import type { YT } from "youtubei.js";
import { youtubeWatchUrl } from "#common/links.ts";
import {
  formatCount,
  formatDuration,
  formatPublishedDate,
  formatSubscribers,
  formatViews,
  isMonetized,
  pickBestThumbnail,
  truncateDescription,
} from "../../details/format.ts";
import { parseAbbreviatedCount, parseDateText } from "../../details/parse-text.ts";
import type { Thumbnail, VideoDetails } from "../../types.ts";
import { pickAvatar } from "./thumbnails.ts";

export function embedUrlFor(id: string): string {
  return `https://www.youtube-nocookie.com/embed/${id}`;
}

interface PlayerJson {
  playerResponse?: PlayerJson;
  microformat?: { playerMicroformatRenderer?: { publishDate?: string; uploadDate?: string } };
}

/** WEB-family players carry an exact publish date; mobile clients do not (then `next` gives it). */
function microformatPublishDate(player: unknown): string | undefined {
  const root = (player ?? {}) as PlayerJson;
  const mf = (root.playerResponse ?? root).microformat?.playerMicroformatRenderer;
  return mf?.publishDate ?? mf?.uploadDate;
}

export function detailsFromInnertube(opts: {
  id: string;
  info: YT.VideoInfo;
  player: unknown;
  thumbnails: Thumbnail[];
}): VideoDetails {
  const { id, info, thumbnails } = opts;
  const basic = info.basic_info;
  const owner = info.secondary_info?.owner;
  const viewsNumber = basic.view_count ?? parseAbbreviatedCount(info.primary_info?.view_count?.view_count?.toString()) ?? 0;
  const subscribers = parseAbbreviatedCount(owner?.subscriber_count?.toString());
  const published =
    microformatPublishDate(opts.player) ?? parseDateText(info.primary_info?.published?.toString())?.toISOString() ?? "";
  const description = basic.short_description ?? info.secondary_info?.description?.toString() ?? "";
  const seconds = basic.duration ?? 0;
  const avatars = owner?.author?.thumbnails?.map((t) => ({ url: t.url, width: t.width }));
  return {
    id,
    title: basic.title ?? "",
    description: truncateDescription(description),
    thumbnail: pickBestThumbnail(thumbnails),
    channelTitle: basic.author ?? owner?.author?.name ?? "",
    channelId: basic.channel_id ?? owner?.author?.id ?? "",
    channelThumbnail: pickAvatar(avatars),
    isMonetized: isMonetized(subscribers, viewsNumber),
    subscriberCount: formatSubscribers(subscribers),
    publishedAt: formatPublishedDate(published),
    duration: formatDuration(seconds),
    viewCount: formatViews(viewsNumber),
    likeCount: typeof basic.like_count === "number" ? formatCount(basic.like_count) : "Unknown",
    tags: basic.keywords ?? [],
    downloadUrl: youtubeWatchUrl(id),
    platform: "youtube",
    durationSeconds: seconds,
    embedUrl: embedUrlFor(id),
  };
}
