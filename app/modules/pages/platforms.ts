/**
 * The platform cards on /supported-sites (spec §3 "Platform entry", §4 "Platform support
 * status"). `PLATFORMS` is the spec's table; `platformsFor` turns it into what this server can
 * do, computed at start from its resolvers (issue 12: the page never promises more).
 */
export type PlatformStatus = "fully-supported" | "basic-support" | "planned";

export const PLATFORM_STATUS_LABELS: Record<PlatformStatus, string> = {
  "fully-supported": "Fully Supported",
  "basic-support": "Basic Support",
  planned: "Coming Soon",
};

export interface PlatformEntry {
  name: string;
  /** monogram and brand colour for the logo badge (we do not ship third-party logos) */
  logo: { letter: string; background: string };
  description: string;
  formats: string[];
  maxQuality: string;
  status: PlatformStatus;
  features: string[];
  /** set when the status depends on something this server lacks: what the operator must add */
  needs?: string;
}

/** What this server can resolve, decided at start (engine adapters, yt-dlp present or not). */
export interface PlatformCapabilities {
  ytdlp: boolean;
}

/** The platforms the spec plans, which yt-dlp's extractors already read. */
const THROUGH_YTDLP = new Set(["TikTok", "Twitter (X)", "Vimeo", "Dailymotion", "Twitch"]);
/** The spec's "Basic Support" platforms: they work only through yt-dlp here. */
const BASIC_NEEDS_YTDLP = new Set(["Facebook", "Instagram"]);

/**
 * The cards as this server can honour them. With yt-dlp: Facebook and Instagram as the spec
 * describes them, and the planned platforms whose public videos yt-dlp resolves get basic
 * support. Without it: Facebook and Instagram say they need yt-dlp on this server, and the
 * planned ones stay "Coming Soon".
 */
export function platformsFor(caps: PlatformCapabilities): PlatformEntry[] {
  return PLATFORMS.map((p) => {
    if (BASIC_NEEDS_YTDLP.has(p.name) && !caps.ytdlp) {
      return { ...p, needs: "yt-dlp on this server", features: [...p.features, "Not available on this server yet: it needs yt-dlp installed"] };
    }
    if (THROUGH_YTDLP.has(p.name) && caps.ytdlp) {
      return {
        ...p,
        status: "basic-support",
        formats: ["MP4"],
        maxQuality: "As the platform serves it",
        features: ["Public videos, resolved with yt-dlp", "MP4 in the qualities the platform offers", "Private, login-only and DRM-protected videos are not supported"],
      };
    }
    return p;
  });
}

/** "Basic Support", or "Basic Support (needs yt-dlp on this server)" when this server lacks it. */
export function statusLabel(p: PlatformEntry): string {
  return p.needs ? `${PLATFORM_STATUS_LABELS[p.status]} (needs ${p.needs})` : PLATFORM_STATUS_LABELS[p.status];
}

export const PLATFORMS: PlatformEntry[] = [
  {
    name: "YouTube",
    logo: { letter: "Y", background: "#c4211b" },
    description: "Videos, Shorts and music videos from public links, including youtu.be short links and embed links.",
    formats: ["MP4", "MP3", "WEBM"],
    maxQuality: "1080p",
    status: "fully-supported",
    features: [
      "MP4 from 360p up to 1080p Full HD (1440p, 4K and 8K with Premium)",
      "Audio as MP3 (128, 256 or 320 kbps), AAC or M4A",
      "HD thumbnail as JPG and transcript as TXT",
      "Playlist support coming soon",
    ],
  },
  {
    name: "Facebook",
    logo: { letter: "f", background: "#1b4fb8" },
    description: "Public videos from pages and profiles. Private videos and videos in closed groups cannot be reached.",
    formats: ["MP4"],
    maxQuality: "720p",
    status: "basic-support",
    features: ["Public page and profile videos", "MP4 up to 720p HD", "Audio extraction is not available yet"],
  },
  {
    name: "Instagram",
    logo: { letter: "I", background: "#a4246b" },
    description: "Reels from public accounts. Stories and posts from private accounts are not supported.",
    formats: ["MP4"],
    maxQuality: "Standard quality",
    status: "basic-support",
    features: ["Reels from public accounts", "MP4 in the quality Instagram serves for playback", "No login needed"],
  },
  {
    name: "TikTok",
    logo: { letter: "T", background: "#111827" },
    description: "Short videos from public TikTok accounts.",
    formats: ["MP4", "MP3"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: MP4 video", "Planned: sound extraction as MP3"],
  },
  {
    name: "Twitter (X)",
    logo: { letter: "X", background: "#1f2937" },
    description: "Videos and GIFs attached to public posts.",
    formats: ["MP4"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: videos in public posts", "Planned: animated GIFs saved as MP4"],
  },
  {
    name: "Vimeo",
    logo: { letter: "V", background: "#0f6e8c" },
    description: "Public Vimeo videos whose owner allows playback on other sites.",
    formats: ["MP4", "MP3"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: MP4 up to 1080p", "Planned: audio extraction"],
  },
  {
    name: "Dailymotion",
    logo: { letter: "D", background: "#0a58ca" },
    description: "Public Dailymotion videos.",
    formats: ["MP4"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: MP4 up to 1080p"],
  },
  {
    name: "Twitch",
    logo: { letter: "T", background: "#6d28d9" },
    description: "Clips and past broadcasts (VODs) from public channels. Live streams will stay unsupported.",
    formats: ["MP4"],
    maxQuality: "1080p",
    status: "planned",
    features: ["Planned: clips", "Planned: past broadcasts"],
  },
];
