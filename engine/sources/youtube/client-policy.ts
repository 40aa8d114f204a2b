/**
 * What the ladder knows about each InnerTube client beyond what youtubei.js builds for it. From
 * yt-dlp's per-client policy table as of 2026-08 (../shared/reviews/youtube-2026-11.md §1.1):
 * these clients' media URLs need a GVS proof-of-origin token, without which googlevideo serves
 * about the first megabyte and then refuses. Without a token their formats are a last resort: they
 * fill what no other client gave, and never end the ladder early.
 */
const TOKEN_GATED = new Set(["WEB", "MWEB", "WEB_CREATOR", "YTMUSIC", "TV_SIMPLY", "ANDROID", "ANDROID_VR", "IOS"]);

/** true when the client's formats need a PO token (whether or not we have one) */
export function isTokenGated(client: string): boolean {
  return TOKEN_GATED.has(client);
}

/**
 * The token-gated clients a web (BotGuard) token serves: what a bgutil provider mints (po-token.ts).
 * A token is only good on the platform that attested it (review §1.1: DroidGuard for Android,
 * iOSGuard for iOS), so ANDROID, ANDROID_VR and IOS stay a last resort even with a provider.
 */
const WEB_TOKEN_CLIENTS = new Set(["WEB", "MWEB", "WEB_CREATOR", "YTMUSIC", "TV_SIMPLY"]);

/** true when a web proof-of-origin token makes this client's formats whole */
export function takesWebToken(client: string): boolean {
  return WEB_TOKEN_CLIENTS.has(client);
}

/** A caption URL YouTube serves only with a PO token (the subs token): it says `exp=xpe` (review Y6). */
export function captionUrlNeedsToken(url: string): boolean {
  return URL.canParse(url) && new URL(url).searchParams.get("exp") === "xpe";
}

/**
 * The client asked after an age gate when the video may be embedded: YouTube lets the embedded
 * player through age gates that stop the apps (yt-dlp appends it the same way).
 */
export const EMBEDDED_CLIENT = "WEB_EMBEDDED";
