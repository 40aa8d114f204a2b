/**
 * Link parsing shared by the browser form and the server (spec §5). Dependency-free on purpose:
 * it runs in the browser bundle and in the engine, so both sides accept exactly the same links.
 */

export type LinkErrorCode = "link.empty" | "link.invalid" | "link.no_id";

export const LINK_MESSAGES: Record<LinkErrorCode, string> = {
  "link.empty": "Please enter a YouTube URL",
  "link.invalid": "Please enter a valid YouTube URL",
  "link.no_id": "Could not extract video ID from URL",
};

/**
 * What `parseLink` says about input that is no link at all. The form accepts links of several
 * platforms and direct media links, so the spec's "valid YouTube URL" would not tell the truth
 * there (issue 12); YouTube-only checks (`parseYouTubeUrl`) keep the spec's wording.
 */
export const INVALID_VIDEO_LINK_MESSAGE = "Please enter a valid video link";

export type LinkError = { ok: false; code: LinkErrorCode; message: string; site?: SitePlatform };
export type YouTubeParseResult = { ok: true; id: string } | LinkError;

/**
 * Every platform whose links we recognise (spec §4 "Platform support status"), in the order the
 * supported-sites page shows them: an id (the API's `platform`), the display name, who reads its
 * videos (the engine's own adapter, or yt-dlp when the server has it) and, for the yt-dlp ones,
 * its link forms as [host, video path (plus query)]. A link on one of these hosts that is not a
 * video form (a profile, a feed) is refused in the form with the platform's name, instead of
 * being fetched as a web page, unless it is one of the platform's playlist forms (`lists`).
 * Adding a yt-dlp platform is one entry here. Kept terse: this table
 * ships in the home page's bundle. YouTube's link forms are parsed by `parseYouTubeUrl` below.
 */
export const PLATFORMS = [
  { id: "youtube", name: "YouTube", reader: "native", links: [] },
  {
    id: "facebook",
    name: "Facebook",
    reader: "ytdlp",
    links: [
      [
        /^(?:(?:www|m|web|mbasic)\.)?(?:facebook|fb)\.com$/,
        /^\/(?:watch\/?\?(?:.*&)?v=\d|(?:[^/]+\/)?videos\/(?:[^/]+\/)?\d|reel\/\d|share\/[vr]\/[\w-]|video\.php\?(?:.*&)?v=\d)/,
      ],
      [/^(?:www\.)?fb\.watch$/, /^\/[\w-]/],
    ],
  },
  { id: "instagram", name: "Instagram", reader: "ytdlp", links: [[/^(?:www\.|m\.)?instagram\.com$/, /^\/(?:[\w.]+\/)?(?:reels?|p|tv)\/[\w-]/]] },
  {
    id: "tiktok",
    name: "TikTok",
    reader: "ytdlp",
    links: [
      [/^(?:www\.|m\.)?tiktok\.com$/, /^\/(?:@[\w.-]+\/video\/\d|t\/\w|v\/\d)/],
      [/^v[mt]\.tiktok\.com$/, /^\/\w/],
    ],
  },
  { id: "twitter", name: "Twitter (X)", reader: "ytdlp", links: [[/^(?:www\.|mobile\.)?(?:twitter|x)\.com$/, /^\/(?:\w+|i\/web)\/status\/\d/]] },
  {
    id: "vimeo",
    name: "Vimeo",
    reader: "ytdlp",
    links: [[/^(?:www\.|player\.)?vimeo\.com$/, /^\/(?:video\/|channels\/[\w-]+\/|groups\/[\w-]+\/videos\/|showcase\/\d+\/video\/)?\d/]],
    lists: [[/^(?:www\.)?vimeo\.com$/, /^\/(?:showcase|album)\/\d+\/?(?:[?#]|$)/]],
  },
  {
    id: "dailymotion",
    name: "Dailymotion",
    reader: "ytdlp",
    links: [
      [/^(?:www\.)?dailymotion\.com$/, /^\/(?:embed\/)?video\/[a-z\d]/i],
      [/^dai\.ly$/, /^\/[a-z\d]/i],
    ],
    lists: [[/^(?:www\.)?dailymotion\.com$/, /^\/playlist\/[a-z\d]+\/?(?:[?#]|$)/i]],
  },
  {
    id: "twitch",
    name: "Twitch",
    reader: "ytdlp",
    links: [
      [/^(?:www\.|m\.)?twitch\.tv$/, /^\/(?:videos\/\d|\w+\/clip\/[\w-])/],
      [/^clips\.twitch\.tv$/, /^\/[\w-]/],
    ],
    lists: [[/^(?:www\.)?twitch\.tv$/, /^\/collections\/[\w-]+\/?(?:[?#]|$)/]],
  },
] as const satisfies ReadonlyArray<{
  id: string;
  name: string;
  reader: "native" | "ytdlp";
  links: ReadonlyArray<readonly [RegExp, RegExp]>;
  /** playlist forms yt-dlp lists (a showcase, a playlist page) as [host, playlist path] */
  lists?: ReadonlyArray<readonly [RegExp, RegExp]>;
}>;

export type PlatformId = (typeof PLATFORMS)[number]["id"];
/** Platforms other than YouTube: recognised by the link rules of the table above. */
export type SitePlatform = Exclude<PlatformId, "youtube">;

// (the annotations let a bundle that uses none of this drop it: these lines are calls, not literals)
export const PLATFORM_IDS: PlatformId[] = /* @__PURE__ */ PLATFORMS.map((p) => p.id);

export const SITE_NAMES = /* @__PURE__ */ Object.fromEntries(/* @__PURE__ */ PLATFORMS.flatMap((p) => (p.id === "youtube" ? [] : [[p.id, p.name]]))) as Record<SitePlatform, string>;

export type ParsedLink =
  | { kind: "youtube"; id: string; url: string }
  | { kind: "site"; site: SitePlatform; url: string }
  | { kind: "generic"; url: string };
export type LinkParseResult = ({ ok: true } & ParsedLink) | LinkError;

/**
 * A playlist link (issue 30 §3): a YouTube `list=` (its `/playlist?list=` page, or a watch link
 * inside a playlist, which also names a video) or a playlist form of another platform (listed by
 * yt-dlp). `url` is the playlist's canonical link; a YouTube watch link keeps its video in `videoId`.
 */
export type PlaylistLink = { kind: "youtube"; listId: string; url: string; videoId?: string } | { kind: "site"; site: SitePlatform; url: string };

/** [platform, host, video path] for every link form of the table, as `parseLink` tries them. */
const SITE_RULES = /* @__PURE__ */ PLATFORMS.flatMap((p) => p.links.map(([hosts, videoPath]) => [p.id as SitePlatform, hosts, videoPath] as const));

/** "Please enter a valid Facebook video link": the platform was recognised, the link form was not. */
export function invalidSiteLinkMessage(site: SitePlatform): string {
  return `Please enter a valid ${SITE_NAMES[site]} video link`;
}

/** A video id is exactly 11 characters of the URL-safe base64 alphabet. */
export const VIDEO_ID_PATTERN = /^[A-Za-z0-9_-]{11}$/;

/** Main, mobile, music, no-cookie and short hosts. */
const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
  "youtu.be",
  "www.youtu.be",
]);
const SHORT_HOSTS = new Set(["youtu.be", "www.youtu.be"]);

/** Path prefixes whose next segment is the id: /embed/ID, /live/ID, /v/ID, /shorts/ID, /e/ID. */
const ID_PATH_PREFIXES = new Set(["embed", "live", "v", "shorts", "e"]);

/** Longer inputs are not links anyone typed; refusing them keeps parsing cheap. */
const MAX_INPUT_LENGTH = 4096;

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

function fail(code: LinkErrorCode): LinkError {
  return { ok: false, code, message: LINK_MESSAGES[code] };
}

/**
 * Turns user input into a URL: http(s) links as they are, protocol-less links (`youtu.be/…`,
 * `//www.youtube.com/…`) with https added. Anything else (other schemes, junk) gives null.
 */
function toUrl(input: string): { url: URL; explicitScheme: boolean } | null {
  if (/\s/.test(input)) return null;
  let text = input;
  let explicitScheme = false;
  const scheme = SCHEME.exec(text);
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    if (name !== "http" && name !== "https") return null;
    explicitScheme = true;
  } else if (text.startsWith("//")) {
    text = `https:${text}`;
  } else {
    text = `https://${text}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not a URL at all: the caller reports "not a valid link", there is nothing to recover.
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname) return null;
  return { url, explicitScheme };
}

function validId(candidate: string | null | undefined): string | null {
  if (!candidate) return null;
  return VIDEO_ID_PATTERN.test(candidate) ? candidate : null;
}

/** Old embed links glue parameters onto the path (`/v/ID&hl=en`): the id ends at `&`. */
function pathId(segment: string | undefined): string | null {
  return validId(segment?.split("&")[0]);
}

function idFromPathAndQuery(pathname: string, search: string): string | null {
  const params = new URLSearchParams(search);
  const v = params.get("v");
  if (v !== null) return validId(v);

  const segments = pathname.split("/").filter((s) => s.length > 0);
  const first = segments[0]?.toLowerCase();
  if (first && ID_PATH_PREFIXES.has(first)) return pathId(segments[1]);

  // /attribution_link?u=/watch?v=ID (old share links): the target sits in `u`.
  if (first === "attribution_link") {
    const target = params.get("u");
    if (target) {
      const q = target.indexOf("?");
      return idFromPathAndQuery(q === -1 ? target : target.slice(0, q), q === -1 ? "" : target.slice(q));
    }
    return null;
  }
  return null;
}

function idFromUrl(url: URL): string | null {
  const host = url.hostname.toLowerCase();
  if (SHORT_HOSTS.has(host)) {
    const segment = url.pathname.split("/").filter((s) => s.length > 0)[0];
    return pathId(segment);
  }
  const direct = idFromPathAndQuery(url.pathname, url.search);
  if (direct) return direct;
  // A `v` parameter that was present but malformed must not be rescued by other forms.
  if (new URLSearchParams(url.search).get("v") !== null) return null;

  // The `u/x/` form: …/u/1/ID, in the path or the fragment (`#p/u/1/ID`).
  const uForm = /(?:^|\/)u\/\w\/([^/?#&]+)/.exec(`${url.pathname}${url.hash.replace(/^#/, "/")}`);
  if (uForm) return pathId(uForm[1]);

  // Old mobile links keep the route in the fragment: m.youtube.com/#/watch?v=ID
  const hashRoute = /^#!?(\/[^?]*)(\?.*)?$/.exec(url.hash);
  if (hashRoute) return idFromPathAndQuery(hashRoute[1]!, hashRoute[2] ?? "");
  return null;
}

function isYouTubeHost(url: URL): boolean {
  return YOUTUBE_HOSTS.has(url.hostname.toLowerCase());
}

/** Spec §5: the YouTube id of a link, or the exact message the form shows. */
export function parseYouTubeUrl(input: string): YouTubeParseResult {
  const text = typeof input === "string" ? input.trim() : "";
  if (text.length === 0) return fail("link.empty");
  if (text.length > MAX_INPUT_LENGTH) return fail("link.invalid");
  const parsed = toUrl(text);
  if (!parsed || !isYouTubeHost(parsed.url)) return fail("link.invalid");
  const id = idFromUrl(parsed.url);
  return id ? { ok: true, id } : fail("link.no_id");
}

export function isValidYouTubeUrl(input: string): boolean {
  return parseYouTubeUrl(input).ok;
}

export function youtubeWatchUrl(id: string): string {
  return `https://www.youtube.com/watch?v=${id}`;
}

function invalidLink(): LinkError {
  return { ok: false, code: "link.invalid", message: INVALID_VIDEO_LINK_MESSAGE };
}

/**
 * Any link the engine can work with: a YouTube video, a video on another recognised platform
 * (Facebook, Instagram, …: resolved by yt-dlp when the server has it), or a generic http(s)
 * media link (direct file, HLS `.m3u8`, DASH `.mpd`). Generic links need an explicit http(s)
 * scheme, so a typo such as `youtub.com/watch?v=…` is refused rather than fetched; platform links
 * may leave it out like YouTube's. Whether an address may be fetched is decided later by the
 * outbound SSRF guard.
 */
export function parseLink(input: string): LinkParseResult {
  const text = typeof input === "string" ? input.trim() : "";
  if (text.length === 0) return fail("link.empty");
  if (text.length > MAX_INPUT_LENGTH) return invalidLink();
  const parsed = toUrl(text);
  if (!parsed) return invalidLink();
  if (isYouTubeHost(parsed.url)) {
    const id = idFromUrl(parsed.url);
    return id ? { ok: true, kind: "youtube", id, url: youtubeWatchUrl(id) } : fail("link.no_id");
  }
  if (parsed.url.username || parsed.url.password) return invalidLink();
  parsed.url.hash = "";
  const host = parsed.url.hostname.toLowerCase().replace(/\.$/, "");
  const rule = SITE_RULES.find(([, hosts]) => hosts.test(host));
  if (rule) {
    const [site, , videoPath] = rule;
    if (!videoPath.test(parsed.url.pathname + parsed.url.search)) return { ok: false, code: "link.invalid", message: invalidSiteLinkMessage(site), site };
    parsed.url.protocol = "https:";
    return { ok: true, kind: "site", site, url: parsed.url.href };
  }
  if (!parsed.explicitScheme) return invalidLink();
  return { ok: true, kind: "generic", url: parsed.url.href };
}

/** A YouTube playlist id: PL…, OL…, UU…, FL… and the like (URL-safe base64, 10–64 characters). */
const PLAYLIST_ID_PATTERN = /^[A-Za-z0-9_-]{10,64}$/;

/**
 * Lists that are no playlist one can download: mixes ("RD…", generated without end for a viewer)
 * and the signed-in viewer's own lists (Watch later "WL", Liked "LL").
 */
const UNLISTABLE_LIST = /^(?:RD|WL$|LL$)/;

/** The platforms' playlist forms, as `parsePlaylistLink` tries them. */
const LIST_RULES = /* @__PURE__ */ PLATFORMS.flatMap((p) => ("lists" in p ? p.lists : []).map(([hosts, listPath]) => [p.id as SitePlatform, hosts, listPath] as const));

/** `https://www.youtube.com/playlist?list=ID`: the canonical link of a YouTube playlist. */
export function youtubePlaylistUrl(listId: string): string {
  return `https://www.youtube.com/playlist?list=${listId}`;
}

/**
 * The playlist a link names, or null when it names none (a plain video link, a mix, junk). A
 * YouTube watch link with `list=` names both a video and its playlist (`videoId` is set): such a
 * link still resolves and downloads as its video; the playlist's own link is `url`.
 */
export function parsePlaylistLink(input: string): PlaylistLink | null {
  const text = typeof input === "string" ? input.trim() : "";
  if (text.length === 0 || text.length > MAX_INPUT_LENGTH) return null;
  const parsed = toUrl(text);
  if (!parsed) return null;
  const { url } = parsed;
  if (isYouTubeHost(url)) {
    const listId = url.searchParams.get("list");
    if (!listId || !PLAYLIST_ID_PATTERN.test(listId) || UNLISTABLE_LIST.test(listId)) return null;
    const page = url.pathname.replace(/\/+$/, "").toLowerCase();
    if (page === "/playlist") return { kind: "youtube", listId, url: youtubePlaylistUrl(listId) };
    const videoId = idFromUrl(url);
    return videoId ? { kind: "youtube", listId, url: youtubePlaylistUrl(listId), videoId } : null;
  }
  if (url.username || url.password) return null;
  url.hash = "";
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const rule = LIST_RULES.find(([, hosts, listPath]) => hosts.test(host) && listPath.test(url.pathname + url.search));
  if (!rule) return null;
  url.protocol = "https:";
  return { kind: "site", site: rule[0], url: url.href };
}

const MEDIA_EXTENSIONS = /\.(mp4|m4v|m4a|mov|webm|mkv|mp3|aac|ogg|oga|opus|flac|wav|ts|m3u8|mpd|3gp)$/i;

/** Whether a generic link's path names a media file or manifest (a hint, not a guarantee). */
export function hasMediaExtension(url: string): boolean {
  try {
    return MEDIA_EXTENSIONS.test(new URL(url).pathname);
  } catch {
    // Not a URL: no extension to speak of.
    return false;
  }
}
