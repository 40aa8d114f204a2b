/**
 * The yt-dlp mock's TikTok documents (beside tests/mocks/ytdlp.ts, which writes the fake
 * executable that prints them): formats whose CDN checks the headers and the cookie yt-dlp names,
 * in the current serialization and in the one of yt-dlp 2023.03.
 */

/** yt-dlp's default request headers (yt_dlp/utils/networking.py std_headers), as a 2026 release prints them */
const YTDLP_STD_HEADERS = {
  "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/134.0.0.0 Safari/537.36",
  Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "Accept-Language": "en-us,en;q=0.5",
  "Sec-Fetch-Mode": "navigate",
};

/** the cookie TikTok's CDN checks, as its jar holds it (a value Python's SimpleCookie quotes: it has "/", "+" and "=") */
export const TIKTOK_CHAIN_TOKEN = "Ab3/xY+9Zq0vL2kT7rWm4w==";
/** a cookie of the page's own host (host-only), which the CDN must never see */
export const TIKTOK_PAGE_COOKIE = "msToken=pg-9f3c";

export interface TiktokDocumentOptions {
  /** the media file's URL (on a CDN host under `cookieDomain`) */
  mediaUrl: string;
  /** "current": yt-dlp 2023.07 on (a `cookies` field); "2023.03": the Cookie inside http_headers */
  style: "current" | "2023.03";
  /** the Domain yt-dlp names for the CDN's cookies (current style), with its leading dot */
  cookieDomain?: string;
  /** the video's page (yt-dlp's Referer for TikTok's formats) */
  pageUrl?: string;
}

/**
 * A TikTok video as yt-dlp describes it: one progressive H.264/AAC format whose CDN answers only
 * with the page as Referer and the `tt_chain_token` cookie (TikTok's extractor sets `http_headers:
 * {Referer: webpage_url}`), without a size (our engine asks the CDN). The current serialization is
 * YoutubeDL._calc_headers': `name=value; Domain=…; Path=…; Secure; Expires=<epoch s>` per cookie.
 */
export function tiktokDocument(opts: TiktokDocumentOptions): Record<string, unknown> {
  const pageUrl = opts.pageUrl ?? "https://www.tiktok.com/@someone/video/7301234567890123456";
  const headers: Record<string, string> = { ...YTDLP_STD_HEADERS, Referer: pageUrl };
  const format: Record<string, unknown> = {
    format_id: "h264_540p_1026470-0",
    url: opts.mediaUrl,
    ext: "mp4",
    protocol: "https",
    vcodec: "h264",
    acodec: "aac",
    width: 640,
    height: 360,
    tbr: 1026,
    format_note: "Direct video",
    video_ext: "mp4",
    audio_ext: "none",
    http_headers: headers,
  };
  if (opts.style === "current") {
    const domain = opts.cookieDomain ?? ".tiktok.com";
    const [pageName, pageValue] = TIKTOK_PAGE_COOKIE.split("=");
    format.cookies = [
      `tt_chain_token="${TIKTOK_CHAIN_TOKEN.replace(/[\\"]/g, "\\$&")}"; Domain=${domain}; Path=/; Secure; Expires=1900000000`,
      `ttwid=1%7Cq0x8; Domain=${domain}; Path=/; Secure; Expires=1900000000`,
      `${pageName}=${pageValue}; Domain=www.tiktok.com; Path=/; Secure; Expires=1900000000`,
    ].join("; ");
  } else {
    headers.Cookie = `tt_chain_token=${TIKTOK_CHAIN_TOKEN}; ttwid=1%7Cq0x8`;
  }
  return {
    id: "7301234567890123456",
    title: "Harbour birds #nature",
    uploader: "someone",
    duration: 6,
    view_count: 5120,
    timestamp: 1767225600,
    webpage_url: pageUrl,
    extractor_key: "TikTok",
    formats: [format],
  };
}
