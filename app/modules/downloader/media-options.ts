/**
 * What a single download is sent besides its link, format and subtitle language (issue 33 §7):
 * the picker's tags switch, clip, audio track, loudness, SponsorBlock, subtitles in the video and
 * split by chapter choices. One shape from
 * the picker through the offline queue to the `POST /api/v1/downloads` body, each field sent only
 * when it changes the file (the server's defaults are a tagged, whole, original, untouched file).
 */
import type { SponsorCategory } from "#engine/media/sponsorblock/segments.ts";
import type { SubtitlesOption } from "#engine/media/options/media-options.ts";
import { formatClipTime } from "#common/clip-time.ts";
import type { ClipRequest } from "./clip-choice.ts";

export type SponsorBlockAction = "cut" | "chapters";

/** Subtitles into the video: `{language, mode}`, a selectable track ("soft") or burned into the picture ("burn"). */
export type SubtitlesRequest = SubtitlesOption;
export type SubtitlesMode = SubtitlesOption["mode"];

export interface SponsorBlockRequest {
  categories: SponsorCategory[];
  action: SponsorBlockAction;
}

export interface MediaOptions {
  /** false: leave the file bare (no tags written into it) */
  tags?: boolean;
  /** a clip of the file (issue 33 §1) */
  clip?: ClipRequest | null;
  /** the audio track's language (issue 33 §5; none: the original) */
  audioLanguage?: string;
  /** true: loudness evened out to −14 LUFS (MP3, M4A and AAC only; decision 066) */
  normalize?: boolean;
  /** SponsorBlock segments cut out or marked as chapters (YouTube videos only; decision 065) */
  sponsorblock?: SponsorBlockRequest | null;
  /** a caption track muxed in or burned into the picture (MP4 and WEBM only; Pro; decision 069) */
  subtitles?: SubtitlesRequest | null;
  /** "split": one file per chapter, in a ZIP (video and audio files of a video with chapters; decision 070) */
  chapters?: "split";
}

/** The categories a visitor may pick, in the picker's order, in plain words (the engine's list: engine/media/sponsorblock/segments.ts). */
export const SPONSORBLOCK_LABELS: Record<SponsorCategory, string> = {
  sponsor: "Sponsor",
  selfpromo: "Self-promotion",
  interaction: "Interaction reminder",
  intro: "Intro",
  outro: "Outro",
};

export const SPONSORBLOCK_CATEGORIES = Object.keys(SPONSORBLOCK_LABELS) as SponsorCategory[];

/** The formats whose loudness the server evens out (engine/media/loudness/loudness.ts `normalizable`); any other is a 422. */
const NORMALIZE_FORMATS = new Set(["mp3-320", "mp3-256", "mp3-128", "aac-256", "m4a"]);

export function takesNormalize(formatId: string): boolean {
  return NORMALIZE_FORMATS.has(formatId);
}

/** The formats that carry subtitles in the video (engine/media/subtitles/plan-subtitles.ts `carriesSubtitles`): every MP4 and the WEBM. */
export function carriesSubtitles(formatId: string): boolean {
  return formatId === "webm" || formatId.startsWith("mp4-");
}

/** The formats a split by chapter applies to: the video and audio files (MP4, WEBM, MP3, M4A, AAC), not a thumbnail or text. */
function takesSplit(option: { icon: string }): boolean {
  return option.icon === "video" || option.icon === "audio";
}

/** The body fields of `options`: only those that change the file. */
export function mediaFields(options: MediaOptions): Record<string, unknown> {
  return {
    ...(options.tags === false ? { tags: false } : {}),
    ...(options.clip ?? {}),
    ...(options.audioLanguage ? { audioLanguage: options.audioLanguage } : {}),
    ...(options.normalize === true ? { normalize: true } : {}),
    ...(options.sponsorblock && options.sponsorblock.categories.length > 0 ? { sponsorblock: options.sponsorblock } : {}),
    ...(options.subtitles ? { subtitles: { language: options.subtitles.language, mode: options.subtitles.mode } } : {}),
    ...(options.chapters === "split" ? { chapters: "split" } : {}),
  };
}

/** The media options of a wider object (a download's input), without its other keys. */
export function pickMediaOptions({ tags, clip, audioLanguage, normalize, sponsorblock, subtitles, chapters }: MediaOptions): MediaOptions {
  return { tags, clip, audioLanguage, normalize, sponsorblock, subtitles, chapters };
}

/** The options in a few words, for a queued download's label ("clip 0:10–0:40", "loudness evened out"). */
export function describeMediaOptions(options: MediaOptions): string[] {
  const { clip, sponsorblock } = options;
  const words: string[] = [];
  if (clip && (clip.start !== undefined || clip.end !== undefined)) {
    words.push(`clip ${formatClipTime(clip.start ?? 0)}–${clip.end !== undefined ? formatClipTime(clip.end) : "end"}${clip.exact ? " exact" : ""}`);
  }
  if (options.audioLanguage) words.push(`audio ${options.audioLanguage}`);
  if (options.normalize === true) words.push("loudness evened out");
  if (sponsorblock && sponsorblock.categories.length > 0) {
    const kinds = sponsorblock.categories.map((c) => SPONSORBLOCK_LABELS[c].toLowerCase()).join(", ");
    words.push(sponsorblock.action === "chapters" ? `${kinds} marked as chapters` : `${kinds} cut out`);
  }
  if (options.subtitles) words.push(`subtitles ${options.subtitles.language} ${options.subtitles.mode === "burn" ? "burned in" : "as a track"}`);
  if (options.chapters === "split") words.push("one file per chapter");
  if (options.tags === false) words.push("bare");
  return words;
}

/**
 * The picker's choices as sent with one option: the clip, audio track, SponsorBlock and the split
 * by chapter go with video and audio files only, loudness with MP3, M4A and AAC only, subtitles in
 * the video with MP4 and WEBM only (another format with any of them is a 422, never what the
 * visitor meant), the tags switch with every file.
 */
export function mediaOptionsFor(option: { id: string; icon: string }, picked: MediaOptions): MediaOptions {
  const media = option.icon === "video" || option.icon === "audio";
  return {
    tags: picked.tags,
    clip: media ? picked.clip : null,
    audioLanguage: media ? picked.audioLanguage || undefined : undefined,
    normalize: picked.normalize === true && takesNormalize(option.id) ? true : undefined,
    sponsorblock: media ? picked.sponsorblock : null,
    subtitles: picked.subtitles && carriesSubtitles(option.id) ? picked.subtitles : null,
    chapters: picked.chapters === "split" && takesSplit(option) ? "split" : undefined,
  };
}
