import { PLATFORMS, type PlatformId } from "#common/links.ts";
import type { PlatformEntry } from "./platform-status.ts";

/**
 * The platform cards on /supported-sites (spec §3 "Platform entry", §4 "Platform support
 * status"). `CARD_TEXT` is the spec's table keyed by platform id; the platform table in
 * common/links.ts decides which cards exist, their order and names, and who reads each
 * platform. `platformsFor` turns both into what this server can do, computed at start from its
 * resolvers (issue 12: the page never promises more). Server-only: the page gets its cards from
 * its loader, so the platform table stays out of that page's browser code.
 */

/** A card's text: everything but the name, which the platform table holds. */
export type CardText = Omit<PlatformEntry, "name" | "needs">;

/** What this server can resolve, decided at start (engine adapters, yt-dlp present or not). */
export interface PlatformCapabilities {
  ytdlp: boolean;
}

/**
 * A yt-dlp platform added to the table without card text yet: planned, and read by yt-dlp when
 * the server has it (then `platformsFor` gives it the basic-support text every such card gets).
 */
function plannedCard(name: string): CardText {
  return { logo: { letter: name.charAt(0), background: "#334155" }, description: `Public ${name} videos.`, formats: ["MP4"], maxQuality: "1080p", status: "planned", features: [] };
}

/**
 * The cards as this server can honour them. With yt-dlp: the spec's "Basic Support" platforms
 * (Facebook, Instagram) as the spec describes them, and the planned platforms whose public
 * videos yt-dlp resolves get basic support. Without it: the basic ones say they need yt-dlp on
 * this server, and the planned ones stay "Coming Soon".
 */
export function platformsFor(caps: PlatformCapabilities): PlatformEntry[] {
  return PLATFORMS.map((platform): PlatformEntry => {
    const p = { name: platform.name, ...(CARD_TEXT[platform.id] ?? plannedCard(platform.name)) };
    if (platform.reader !== "ytdlp") return p;
    if (p.status === "basic-support" && !caps.ytdlp) {
      return { ...p, needs: "yt-dlp on this server", features: [...p.features, "Not available on this server yet: it needs yt-dlp installed"] };
    }
    if (p.status === "planned" && caps.ytdlp) {
      return {
        ...p,
        status: "basic-support",
        formats: ["MP4", "MP3"],
        maxQuality: "As the platform serves it",
        features: [
          "Public videos, resolved with yt-dlp",
          "MP4 in the qualities the platform offers, audio as MP3, AAC or M4A",
          "Transcript as TXT when the video has captions",
          "Private, login-only and DRM-protected videos are not supported",
        ],
      };
    }
    return p;
  });
}

/** The spec's card text per platform (a platform without an entry gets `plannedCard`). */
export const CARD_TEXT: Partial<Record<PlatformId, CardText>> = {
  youtube: {
    logo: { letter: "Y", background: "#c4211b" },
    description: "Videos, Shorts and music videos from public links, including youtu.be short links and embed links.",
    formats: ["MP4", "MP3", "WEBM"],
    maxQuality: "1080p",
    status: "fully-supported",
    features: [
      "MP4 from 360p up to 1080p Full HD (1440p, 4K and 8K with Premium)",
      "Audio as MP3 (128, 256 or 320 kbps), AAC or M4A",
      "HD thumbnail as JPG and transcript as TXT",
      "Playlists: pick the videos to save (Ultimate saves them as one ZIP)",
    ],
  },
  facebook: {
    logo: { letter: "f", background: "#1b4fb8" },
    description: "Public videos from pages and profiles. Private videos and videos in closed groups cannot be reached.",
    formats: ["MP4"],
    maxQuality: "720p",
    status: "basic-support",
    features: ["Public page and profile videos", "MP4 up to 720p HD", "Audio as MP3, AAC or M4A"],
  },
  instagram: {
    logo: { letter: "I", background: "#a4246b" },
    description: "Reels from public accounts. Stories and posts from private accounts are not supported.",
    formats: ["MP4"],
    maxQuality: "Standard quality",
    status: "basic-support",
    features: ["Reels from public accounts", "MP4 in the quality Instagram serves for playback", "Audio as MP3, AAC or M4A", "No login needed"],
  },
  tiktok: {
    logo: { letter: "T", background: "#111827" },
    description: "Short videos from public TikTok accounts.",
    formats: ["MP4", "MP3"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: MP4 video", "Planned: sound extraction as MP3"],
  },
  twitter: {
    logo: { letter: "X", background: "#1f2937" },
    description: "Videos and GIFs attached to public posts.",
    formats: ["MP4"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: videos in public posts", "Planned: animated GIFs saved as MP4"],
  },
  vimeo: {
    logo: { letter: "V", background: "#0f6e8c" },
    description: "Public Vimeo videos whose owner allows playback on other sites.",
    formats: ["MP4", "MP3"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: MP4 up to 1080p", "Planned: audio extraction"],
  },
  dailymotion: {
    logo: { letter: "D", background: "#0a58ca" },
    description: "Public Dailymotion videos.",
    formats: ["MP4"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: MP4 up to 1080p"],
  },
  twitch: {
    logo: { letter: "T", background: "#6d28d9" },
    description: "Clips and past broadcasts (VODs) from public channels. Live streams will stay unsupported.",
    formats: ["MP4"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: clips", "Planned: past broadcasts"],
  },
};
