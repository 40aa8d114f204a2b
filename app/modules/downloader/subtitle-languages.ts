import type { SubtitleTrackAnswer, SubtitleTranslationAnswer } from "./api-client.ts";

/** The format ids a subtitle language applies to (DESIGN §5 `language`). */
export const LANGUAGE_FORMATS: readonly string[] = ["srt", "vtt", "transcript"];

export interface LanguageChoice {
  /** the `language` sent with the download */
  value: string;
  label: string;
}

export interface LanguageChoices {
  /** the video's own tracks, one per language */
  tracks: LanguageChoice[];
  /** machine translations into languages the video has no track in */
  translations: LanguageChoice[];
}

export const BEST_AVAILABLE_LABEL = "Best available (English first)";

const AUTO_GENERATED = /auto-generated/i;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The options of the subtitle language select. A language is sent, not a track, and the server
 * reads a manual track before a speech-recognition one in the same language: so each language is
 * listed once, under its manual track's name when it has one. Translations into a language the
 * video already has a track in are left out (the server would read that track instead).
 */
export function subtitleLanguageChoices(subtitles: readonly SubtitleTrackAnswer[] = [], translations: readonly SubtitleTranslationAnswer[] = []): LanguageChoices {
  const tracks: LanguageChoice[] = [];
  for (const track of subtitles) {
    const sameLanguage = subtitles.filter((t) => same(t.language, track.language));
    const chosen = sameLanguage.find((t) => !t.auto) ?? sameLanguage[0]!;
    if (chosen !== track) continue;
    // YouTube already names its speech-recognition tracks "English (auto-generated)"
    const label = track.auto && !AUTO_GENERATED.test(track.name) ? `${track.name} (auto-generated)` : track.name;
    tracks.push({ value: track.language, label });
  }
  const shown = translations.filter((t) => !tracks.some((c) => same(c.value, t.language)));
  return { tracks, translations: shown.map((t) => ({ value: t.language, label: `${t.name} (auto-translated)` })) };
}

/** Whether `language` is one of the choices (a stale one from another video is not). */
export function isOffered(choices: LanguageChoices, language: string): boolean {
  return [...choices.tracks, ...choices.translations].some((c) => c.value === language);
}

/**
 * The `language` a download sends: only for subtitles and transcripts, only on a plan that may
 * choose one, and none for "Best available".
 */
export function languageFor(formatId: string, language: string, canChoose: boolean): string | undefined {
  if (!canChoose || !language || !LANGUAGE_FORMATS.includes(formatId)) return undefined;
  return language;
}

const english = (t: SubtitleTrackAnswer) => t.language.toLowerCase().split("-")[0] === "en";

/**
 * The language of the track the server reads without a chosen language
 * (engine/captions/fetch-transcript.ts `pickCaptionTrack`): a manual English track, else any manual one, else
 * English speech recognition, else the first. Subtitles in the video in that language need only
 * the `subtitles` right; any other also `subtitleLanguages`. Undefined without tracks.
 */
export function defaultSubtitleLanguage(subtitles: readonly SubtitleTrackAnswer[] = []): string | undefined {
  const track = subtitles.find((t) => !t.auto && english(t)) ?? subtitles.find((t) => !t.auto) ?? subtitles.find(english) ?? subtitles[0];
  return track?.language;
}

/** The choices a plan without `subtitleLanguages` has: the default track's language alone. */
export function defaultLanguageOnly(choices: LanguageChoices, subtitles: readonly SubtitleTrackAnswer[] = []): LanguageChoices {
  const language = defaultSubtitleLanguage(subtitles);
  return { tracks: choices.tracks.filter((c) => c.value === language), translations: [] };
}
