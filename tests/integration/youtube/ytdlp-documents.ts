/**
 * What yt-dlp (2026.x, `-J`) prints for a video of the mock platform: the fields our map-info
 * reads, in yt-dlp's shape. Its format URLs are googlevideo URLs the mock platform serves (through
 * OUTBOUND_HOST_MAP), marked `c=ytdlp` so a test sees which rung's URL was fetched.
 */
import { statSync } from "node:fs";
import { MOCK_PLATFORM_VIDEOS } from "#tests/mocks/platform.ts";
import type { MockMediaSet } from "#tests/mocks/media.ts";

/** the headers yt-dlp names for every YouTube format (the web client's) */
const HTTP_HEADERS = {
  "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/134.0.0.0 Safari/537.36",
  Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "Accept-Language": "en-us,en;q=0.5",
  "Sec-Fetch-Mode": "navigate",
};

export function youtubeDocument(media: MockMediaSet, id: string): Record<string, unknown> {
  const video = MOCK_PLATFORM_VIDEOS.find((v) => v.id === id);
  if (!video) throw new Error(`no mock platform video ${id}`);
  const expire = Math.floor(Date.now() / 1000) + 6 * 3600;
  const format = (itag: number, file: string, fields: Record<string, unknown>) => {
    const url = new URL("https://rr1---sn-vidfetch-mock.googlevideo.com/videoplayback");
    for (const [k, v] of Object.entries({ expire, id: `o-${id}`, itag, c: "ytdlp", source: "youtube", clen: statSync(file).size })) url.searchParams.set(k, String(v));
    return {
      format_id: String(itag),
      url: url.href,
      protocol: "https",
      filesize: statSync(file).size,
      http_headers: HTTP_HEADERS,
      downloader_options: { http_chunk_size: 10_485_760 },
      ...fields,
    };
  };
  return {
    _type: "video",
    id,
    title: video.title,
    fulltitle: video.title,
    description: video.description,
    channel: video.channel.title,
    channel_id: video.channel.id,
    channel_follower_count: video.channel.subscribers,
    uploader: video.channel.title,
    uploader_id: "@tinychannel",
    duration: Math.round(media.durationSeconds),
    view_count: video.views,
    like_count: video.likes,
    timestamp: Math.floor(Date.parse(video.publishDate) / 1000),
    tags: video.keywords,
    thumbnail: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
    thumbnails: [{ url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`, width: 480, height: 360, id: "hqdefault" }],
    extractor: "youtube",
    webpage_url: `https://www.youtube.com/watch?v=${id}`,
    formats: [
      format(18, media.progressive, { ext: "mp4", vcodec: "avc1.42001E", acodec: "mp4a.40.2", width: 640, height: 360, fps: 24, tbr: 500, asr: 44100, format_note: "360p" }),
      format(134, media.video[360], { ext: "mp4", vcodec: "avc1.4d401e", acodec: "none", width: 640, height: 360, fps: 24, tbr: 400, format_note: "360p" }),
      format(136, media.video[720], { ext: "mp4", vcodec: "avc1.64001f", acodec: "none", width: 1280, height: 720, fps: 24, tbr: 1200, format_note: "720p" }),
      format(140, media.audioM4a, { ext: "m4a", vcodec: "none", acodec: "mp4a.40.2", tbr: 129, asr: 44100, format_note: "medium" }),
    ],
    subtitles: {},
    automatic_captions: {},
  };
}
