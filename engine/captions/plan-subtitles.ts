/**
 * Subtitles into the video (issue 33 §6, docs/decisions/069): a caption track of the video muxed
 * into an MP4 or WEBM as a selectable track (`mov_text`, WebVTT), or burned into its picture (the
 * video re-encoded: H.264 in MP4, VP9 in WEBM). Refused, before any link is signed and again when
 * it opens: another format, a language the video has no track in or cannot translate into, a burn
 * this server's ffmpeg cannot draw (no libass), and a caller whose plan lacks the right.
 */
import { pickCaptionTrack } from "./fetch-transcript.ts";
import { subtitleTrack } from "./languages.ts";
import { mayUse } from "../entitlements.ts";
import { EngineError } from "../errors.ts";
import { planRequired } from "../refusals.ts";
import type { Caller, FormatId, MediaPlan, ResolvedMedia } from "../types.ts";
import type { MediaOptions, SubtitlesOption } from "../media/options/media-options.ts";

interface Sized {
  plan: MediaPlan;
  size: { bytes: number | null; estimated: boolean };
}

/** The formats that carry subtitles: every MP4 and the WEBM. */
export function carriesSubtitles(id: FormatId): boolean {
  return id === "webm" || id.startsWith("mp4-");
}

/** What a muxed track adds when the track's size is unknown: about 30 KB, the SRT of an hour of speech at a few words a second. */
const SOFT_TRACK_BYTES = 30_000;
/** A muxed track's samples: the text, two bytes of length and a few of box per cue, about a tenth more than its SRT. */
const SOFT_TRACK_OVERHEAD = 1.1;

/**
 * The checks that need no resolve (a link is refused before anything is fetched): the format, a
 * burn ffmpeg cannot draw, the caller's right. `burnable`: whether this server's ffmpeg has the
 * `subtitles` filter (MediaTools.burnSubtitles).
 */
export function checkSubtitles(caller: Caller, id: FormatId, options: MediaOptions | undefined, burnable: boolean): void {
  const subtitles = options?.subtitles;
  if (!subtitles) return;
  if (!carriesSubtitles(id)) throw new EngineError("subtitles.unavailable", { detail: `format ${id}` });
  if (subtitles.mode === "burn" && !burnable) {
    throw new EngineError("subtitles.unavailable", {
      message: "Subtitles cannot be burned into the picture on this server. Choose subtitles as a selectable track instead.",
      detail: "ffmpeg has no subtitles filter (built without libass)",
    });
  }
  // a muxed track is as easy to take out as an SRT file: the same right (docs/decisions/069)
  if (!mayUse(caller, "subtitles")) throw planRequired(caller, "subtitles");
}

/**
 * The check once the video is known: subtitles in a language other than the video's own pick (the
 * track an SRT download gets without a `language`), or a machine translation, also need the right
 * to choose the subtitles' language, as SRT, VTT and transcripts do. A language the video has no
 * track in is left to the plan (422).
 */
export function checkSubtitleLanguage(caller: Caller, media: ResolvedMedia, options: MediaOptions | undefined): void {
  const subtitles = options?.subtitles;
  if (!subtitles) return;
  const track = subtitleTrack(media, subtitles.language);
  if (!track || track === pickCaptionTrack(media.captions)) return;
  if (!mayUse(caller, "subtitleLanguages")) throw planRequired(caller, "subtitleLanguages");
}

/**
 * The plan with the subtitles in it: a file sent as it is becomes a remux (ffmpeg adds the track or
 * draws the cues). A muxed track adds its text to the size; a burn re-encodes the video, whose size
 * is then about the source's. Either way the size is an estimate.
 */
export function subtitlesPlan(sized: Sized, media: ResolvedMedia, option: SubtitlesOption): Sized {
  const track = subtitleTrack(media, option.language);
  if (!track) throw new EngineError("subtitles.unavailable", { detail: `no caption track in ${option.language}` });
  const { plan, size } = sized;
  const remux: MediaPlan =
    plan.op === "passthrough"
      ? { op: "remux", inputs: [plan.input], container: plan.extension === "webm" ? "webm" : "mp4", mimeType: plan.mimeType, extension: plan.extension, bytes: plan.bytes }
      : plan;
  if (remux.op !== "remux" || remux.container === "m4a") throw new EngineError("subtitles.unavailable", { detail: `a ${remux.op} plan carries no subtitles` });
  const added = option.mode === "soft" ? Math.round((track.bytes?.srt ?? SOFT_TRACK_BYTES) * SOFT_TRACK_OVERHEAD) : 0;
  const grow = (bytes: number | null) => (bytes === null ? null : bytes + added);
  return { plan: { ...remux, bytes: grow(remux.bytes), subtitles: { track, mode: option.mode } }, size: { bytes: grow(size.bytes), estimated: size.bytes !== null } };
}
