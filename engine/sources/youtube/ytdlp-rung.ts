/**
 * yt-dlp as the last rung of the YouTube ladder (issue 32 §1): asked only when every InnerTube
 * client failed in a way yt-dlp's own client policies, proof-of-origin and challenge plugins might
 * overcome. yt-dlp only describes the video; its formats go through our engine and guarded proxy
 * like any other platform's (decision 020). No youtubei.js here: the source's index imports this.
 */
import type { ParsedLink } from "#common/links.ts";
import type { EngineError } from "../../errors.ts";
import type { CaptionTrack, ResolvedMedia } from "../../types.ts";
import type { SourceContext } from "../types.ts";

/** The name that stands for yt-dlp in `YOUTUBE_CLIENTS` (any case). */
export const YTDLP_RUNG = "ytdlp";

/**
 * What the ladder needs of the yt-dlp source: one YouTube video described and its formats read;
 * or only its caption tracks (one yt-dlp run, no format read), when every InnerTube client's
 * tracks need a token we lack (resolve.ts).
 */
export interface YtdlpRung {
  resolveYouTube(link: Extract<ParsedLink, { kind: "youtube" }>, ctx: SourceContext): Promise<ResolvedMedia>;
  captionsOfYouTube(link: Extract<ParsedLink, { kind: "youtube" }>, ctx: SourceContext): Promise<CaptionTrack[]>;
}

export function isYtdlpRung(name: string): boolean {
  return name.trim().toLowerCase() === YTDLP_RUNG;
}

/**
 * How an InnerTube ladder that gave no complete answer may end. A refusal about the video itself
 * (private, removed, region, members…) is `final`: yt-dlp would be told the same. So is "not found"
 * from every client asked. Anything else (a bot wall, SABR-only or token-gated formats, an age
 * gate, a client error) is worth yt-dlp's try.
 */
export function ytdlpMayOvercome(failure: { error: EngineError; final: boolean }): boolean {
  return !failure.final && failure.error.code !== "video.not_found";
}
