/**
 * The project's own YouTube responses for every case the recorded fixtures cover, so the YouTube
 * integration suite runs in a clone without ../shared. Built on the mock platform's generators
 * (the bodies `MOCKS=true` serves, tests/mocks/platform.ts) and written in the same InnerTube and
 * Data API v3 shapes as YouTube's answers: nothing here is copied from a recording.
 */
import { MOCK_PLATFORM_VIDEOS, syntheticNextResponse, syntheticPlayerResponse } from "#tests/mocks/platform.ts";
import type { MockMediaSet } from "#tests/mocks/media.ts";
import type { Json, PlayerFixture, YouTubeResponses } from "#tests/mocks/youtube.ts";

type SyntheticVideo = (typeof MOCK_PLATFORM_VIDEOS)[number];

const everyQuality = MOCK_PLATFORM_VIDEOS.find((v) => v.id === "vidfetchAll")!;

/**
 * The main video: like the recorded one, no 480p, a VP9 WebM rendition, AAC and Opus audio, a
 * progressive 360p stream (which VISIONOS leaves out) and two English caption tracks.
 */
export const SYNTHETIC_MAIN: SyntheticVideo = { ...everyQuality, id: "vidfetchSyn", itags: [18, 137, 136, 134, 247, 140, 251], captions: true, maxres: true };

/** The player script version our `/iframe_api` names. */
export const SYNTHETIC_PLAYER_ID = "0f1d2c3b";

/** Data API cases: a video whose channel answers, and one whose channel call fails. */
export const SYNTHETIC_API_VIDEO = "vidfetchApi";
export const SYNTHETIC_API_CHANNEL_FAILS = "vidfetchNoC";
const UNANSWERED_CHANNEL = "UCvidfetchNoSuchChannel";

const status = (playabilityStatus: Json, extra: Json = {}): Json => ({
  responseContext: { visitorData: "CgtWaWRGZXRjaE1vY2s%3D", serviceTrackingParams: [] },
  playabilityStatus,
  ...extra,
});

/** reel_item_watch (ANDROID) wraps the player response; the adapter must accept both shapes. */
const reel = (player: Json): Json => ({ responseContext: player.responseContext, playerResponse: player });

function mainPlayer(videoId: string, media: MockMediaSet): Json {
  return syntheticPlayerResponse({ ...SYNTHETIC_MAIN, id: videoId }, media) as Json;
}

/** VISIONOS: adaptive formats only, each with a direct URL, plus the HLS and SABR URLs it also sends. */
function visionos(videoId: string, media: MockMediaSet): Json {
  const body = mainPlayer(videoId, media);
  const sd = body.streamingData as Json;
  const host = "https://rr1---sn-vidfetch-mock.googlevideo.com";
  delete sd.formats;
  sd.hlsManifestUrl = `${host}/api/manifest/hls_variant/id/o-${videoId}/file/index.m3u8`;
  sd.serverAbrStreamingUrl = `${host}/videoplayback?id=o-${videoId}&sabr=1&source=youtube`;
  return body;
}

/** ANDROID in the SABR experiment: the progressive stream keeps its URL, adaptive ones have none. */
function androidSabrOnly(videoId: string, media: MockMediaSet): Json {
  const body = mainPlayer(videoId, media);
  const sd = body.streamingData as Json;
  for (const f of sd.adaptiveFormats as Json[]) delete f.url;
  sd.serverAbrStreamingUrl = `https://rr1---sn-vidfetch-mock.googlevideo.com/videoplayback?id=o-${videoId}&sabr=1&source=youtube`;
  return reel(body);
}

const unplayable = (reason: string, subreason: string): Json =>
  status({
    status: "UNPLAYABLE",
    reason,
    errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: reason }, subreason: { runs: [{ text: subreason }] } } },
    playableInEmbed: false,
  });

function playerBody(fixture: PlayerFixture, videoId: string, media: MockMediaSet): Json {
  switch (fixture) {
    case "visionos":
      return visionos(videoId, media);
    case "androidSabrOnly":
      return androidSabrOnly(videoId, media);
    case "android2026Jan":
      return reel(mainPlayer(videoId, media));
    case "private":
      return syntheticPlayerResponse({ ...SYNTHETIC_MAIN, id: videoId, playability: "private" }, media) as Json;
    case "privateReel":
      return reel(syntheticPlayerResponse({ ...SYNTHETIC_MAIN, id: videoId, playability: "private" }, media) as Json);
    case "ageRestricted":
      return syntheticPlayerResponse({ ...SYNTHETIC_MAIN, id: videoId, playability: "age" }, media) as Json;
    case "membersOnly":
      return unplayable("Join this channel to get access to members-only content like this video, and other exclusive perks.", "Become a member of VidFetch Samples.");
    case "regionBlocked":
      return unplayable("Video unavailable", "The uploader has not made this video available in your country");
    case "musicPremium":
      return unplayable("Music Premium", "This video can only be played by Music Premium members");
    case "nonexistent":
      // YouTube answers an id that never existed with an empty object
      return {};
    case "unavailable":
      return status({ status: "ERROR", reason: "This video is unavailable", errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: "This video is unavailable" } } } });
    case "botCheck":
      return status({
        status: "LOGIN_REQUIRED",
        reason: "Sign in to confirm you\u2019re not a bot",
        errorScreen: { playerErrorMessageRenderer: { subreason: { runs: [{ text: "This helps protect our community. Learn more" }] } } },
      });
    case "live": {
      const body = visionos(videoId, media);
      Object.assign(body.videoDetails as Json, { isLive: true, isLiveContent: true, lengthSeconds: "0" });
      return body;
    }
    case "upcoming":
      return status(
        {
          status: "LIVE_STREAM_OFFLINE",
          reason: "This live event will begin in 3 days.",
          liveStreamability: { liveStreamabilityRenderer: { videoId, offlineSlate: { liveStreamOfflineSlateRenderer: { scheduledStartTime: "1798000000" } }, pollDelayMs: "15000" } },
        },
        { videoDetails: { videoId, title: "Upcoming premiere sample", lengthSeconds: "0", isLiveContent: true, isUpcoming: true, author: SYNTHETIC_MAIN.channel.title } },
      );
  }
}

/** A Data API `videos` item (parts snippet, contentDetails, statistics). */
function apiVideo(id: string, channelId: string, title: string): Json {
  const thumbs = Object.fromEntries(
    (
      [
        ["default", "default", 120, 90],
        ["medium", "mqdefault", 320, 180],
        ["high", "hqdefault", 480, 360],
        ["standard", "sddefault", 640, 480],
        ["maxres", "maxresdefault", 1280, 720],
      ] as const
    ).map(([name, file, width, height]) => [name, { url: `https://i.ytimg.com/vi/${id}/${file}.jpg`, width, height }]),
  );
  return {
    kind: "youtube#video",
    etag: `vidfetch-${id}`,
    id,
    snippet: {
      publishedAt: "2026-02-14T09:30:00Z",
      channelId,
      title,
      description:
        "A generated clip whose details come from the YouTube Data API rather than InnerTube. It exists so the details path with an API key is tested without any recorded response at all.",
      thumbnails: thumbs,
      channelTitle: SYNTHETIC_MAIN.channel.title,
      tags: ["sample", "data api"],
      categoryId: "27",
      liveBroadcastContent: "none",
    },
    contentDetails: { duration: "PT4M5S", dimension: "2d", definition: "hd", caption: "true", licensedContent: false },
    statistics: { viewCount: "123456", likeCount: "2345", favoriteCount: "0", commentCount: "12" },
  };
}

export function syntheticResponses(media: MockMediaSet): YouTubeResponses {
  const channel = SYNTHETIC_MAIN.channel;
  return {
    kind: "synthetic",
    player: (fixture, videoId) => playerBody(fixture, videoId, media),
    next: (videoId) => syntheticNextResponse({ ...SYNTHETIC_MAIN, id: videoId }),
    iframeApi: () =>
      `var scriptUrl = 'https:\\/\\/www.youtube.com\\/s\\/player\\/${SYNTHETIC_PLAYER_ID}\\/www-widgetapi.vflset\\/www-widgetapi.js';` +
      `var YT;if(!window["YT"])YT={loading:0,loaded:0};`,
    dataApi: {
      videos: [
        apiVideo(SYNTHETIC_API_VIDEO, channel.id, "Sample clip described by the Data API"),
        apiVideo(SYNTHETIC_API_CHANNEL_FAILS, UNANSWERED_CHANNEL, "Sample clip whose channel lookup fails"),
      ],
      channels: [
        {
          kind: "youtube#channel",
          etag: `vidfetch-${channel.id}`,
          id: channel.id,
          snippet: {
            title: channel.title,
            description: "Generated sample videos.",
            publishedAt: "2024-05-01T00:00:00Z",
            thumbnails: {
              default: { url: `https://yt3.ggpht.com/ytc/vidfetch-${channel.id}=s88-c-k-c0x00ffffff-no-rj`, width: 88, height: 88 },
              medium: { url: `https://yt3.ggpht.com/ytc/vidfetch-${channel.id}=s240-c-k-c0x00ffffff-no-rj`, width: 240, height: 240 },
            },
          },
          statistics: { viewCount: "2500000", subscriberCount: String(channel.subscribers), hiddenSubscriberCount: false, videoCount: "3" },
          brandingSettings: { channel: { title: channel.title } },
        },
      ],
    },
  };
}
