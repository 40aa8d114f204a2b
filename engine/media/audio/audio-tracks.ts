/**
 * A video's audio tracks (issue 33 §5, docs/decisions/067): dubbed languages and descriptive audio
 * beside the original. Resolve lists them (`audioTracks`); a download takes one by its language
 * (`audioLanguage`), and without one the plans only see the original, so the default never
 * changes because a dub's bitrate happens to be higher.
 */
import { EngineError } from "../../errors.ts";
import type { ResolvedMedia, UpstreamStream } from "../../types.ts";

/** One audio track as `POST /resolve` lists it. */
export interface AudioTrackAnswer {
  language: string;
  name: string;
  /** the video's own track: what a download without `audioLanguage` carries */
  default: boolean;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** "en", "pt-BR", "en-desc": a BCP 47-like tag (an HLS rendition without LANGUAGE carries only its NAME) */
export const AUDIO_LANGUAGE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,2}$/;
const isLanguageTag = (value: string) => AUDIO_LANGUAGE.test(value);

/** The separate audio streams whose language is a language tag (an HLS rendition may name only itself). */
function languageStreams(media: ResolvedMedia): Array<UpstreamStream & { language: string }> {
  return media.streams.filter((s): s is UpstreamStream & { language: string } => s.kind === "audio" && s.language !== undefined && isLanguageTag(s.language));
}

let displayNames: Intl.DisplayNames | undefined;
function languageName(code: string): string {
  try {
    displayNames ??= new Intl.DisplayNames(["en"], { type: "language" });
    const base = code.replace(/-desc$/i, "");
    const name = displayNames.of(base) ?? base;
    return base === code ? name : `${name} (descriptive audio)`;
  } catch {
    return code;
  }
}

/**
 * One entry per language, in the order the source lists them, the default first. The default is
 * the language of the streams not marked otherwise (`audioDefault` unset); empty when the source
 * names no language, or the video has one language only and says nothing more.
 */
export function listAudioTracks(media: ResolvedMedia): AudioTrackAnswer[] {
  const streams = languageStreams(media);
  const tracks: AudioTrackAnswer[] = [];
  for (const s of streams) {
    if (tracks.some((t) => same(t.language, s.language))) continue;
    const name = streams.find((o) => same(o.language, s.language) && o.audioName)?.audioName ?? languageName(s.language);
    tracks.push({ language: s.language, name, default: false });
  }
  const original = streams.find((s) => s.audioDefault !== false);
  const first = original ? tracks.find((t) => same(t.language, original.language)) : undefined;
  if (first) first.default = true;
  return first ? [first, ...tracks.filter((t) => t !== first)] : tracks;
}

/**
 * The media a plan may choose from for a download in `language` (absent: the original): the
 * other tracks' audio streams left out. A language that is not the original's also leaves out the
 * audio inside progressive streams (they carry the original), which are then video only, so MP4
 * and WebM are remuxed with the chosen track. A language this video does not have is
 * `audio.language_unavailable`, never the default track in its place.
 */
export function withAudioLanguage(media: ResolvedMedia, language: string | undefined): ResolvedMedia {
  const isOther = (s: UpstreamStream) => s.kind === "audio" && s.audioDefault === false;
  if (language === undefined) {
    const originals = media.streams.filter((s) => !isOther(s));
    return originals.length === media.streams.length ? media : { ...media, streams: originals };
  }
  const tracks = listAudioTracks(media);
  const track = tracks.find((t) => same(t.language, language));
  if (!track) {
    throw new EngineError("audio.language_unavailable", { detail: `${language}: this video has ${tracks.map((t) => t.language).join(", ") || "no named audio track"}` });
  }
  if (track.default) return withAudioLanguage(media, undefined);
  const streams = media.streams.flatMap((s): UpstreamStream[] => {
    if (s.kind === "audio") return s.language !== undefined && same(s.language, track.language) ? [s] : [];
    if (s.kind === "progressive") return [videoOnly(s)];
    return [s];
  });
  return { ...media, streams };
}

/** A progressive stream read for its picture only (ffmpeg maps the video of a "video" input). */
function videoOnly(s: UpstreamStream): UpstreamStream {
  const video: UpstreamStream = { ...s, kind: "video" };
  delete video.acodec;
  delete video.audioSampleRate;
  return video;
}
