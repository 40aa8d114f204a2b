import { describe, expect, it } from "vitest";
import { requestDownload, type SubtitleTrackAnswer } from "./api-client.ts";
import { runDownload } from "./run-download.ts";
import { defaultLanguageOnly, defaultSubtitleLanguage, isOffered, languageFor, subtitleLanguageChoices } from "./subtitle-languages.ts";

/** vidfetchSub's answer (tests/mocks/platform.ts), as POST /resolve lists it. */
const tracks: SubtitleTrackAnswer[] = [
  { language: "en", name: "English", auto: false, translatable: true },
  { language: "en", name: "English (auto-generated)", auto: true, translatable: true },
  { language: "de", name: "German", auto: false, translatable: false },
  { language: "es", name: "Spanish", auto: false, translatable: false },
];
const translations = [
  { language: "fr", name: "French" },
  { language: "ja", name: "Japanese" },
];

describe("subtitle language choices", () => {
  it("list each language of the video once, under its manual track's name, then the translations", () => {
    expect(subtitleLanguageChoices(tracks, translations)).toEqual({
      tracks: [
        { value: "en", label: "English" },
        { value: "de", label: "German" },
        { value: "es", label: "Spanish" },
      ],
      translations: [
        { value: "fr", label: "French (auto-translated)" },
        { value: "ja", label: "Japanese (auto-translated)" },
      ],
    });
  });

  it("name a speech-recognition track once as auto-generated, whether or not its name says so", () => {
    const asrOnly = subtitleLanguageChoices([
      { language: "en", name: "English (auto-generated)", auto: true, translatable: true },
      { language: "it", name: "Italian", auto: true, translatable: false },
    ]);
    expect(asrOnly.tracks).toEqual([
      { value: "en", label: "English (auto-generated)" },
      { value: "it", label: "Italian (auto-generated)" },
    ]);
  });

  it("leave out a translation into a language the video has a track in (that track is what the server reads)", () => {
    const choices = subtitleLanguageChoices(tracks, [{ language: "DE", name: "German" }, ...translations]);
    expect(choices.translations.map((c) => c.value)).toEqual(["fr", "ja"]);
  });

  it("are empty for a video without subtitles or an answer without the fields", () => {
    expect(subtitleLanguageChoices()).toEqual({ tracks: [], translations: [] });
    expect(subtitleLanguageChoices([], translations)).toEqual({ tracks: [], translations: [{ value: "fr", label: "French (auto-translated)" }, { value: "ja", label: "Japanese (auto-translated)" }] });
  });

  it("know which languages they offer", () => {
    const choices = subtitleLanguageChoices(tracks, translations);
    expect(isOffered(choices, "de")).toBe(true);
    expect(isOffered(choices, "fr")).toBe(true);
    expect(isOffered(choices, "pt")).toBe(false);
    expect(isOffered(choices, "")).toBe(false);
  });
});

describe("the default subtitle language (the track the server reads without a chosen one)", () => {
  const t = (language: string, auto: boolean): SubtitleTrackAnswer => ({ language, name: language, auto, translatable: false });
  it("is a manual English track, else any manual one, else English speech recognition, else the first", () => {
    expect(defaultSubtitleLanguage([t("de", false), t("en-GB", false), t("en", true)])).toBe("en-GB");
    expect(defaultSubtitleLanguage([t("en", true), t("es", false)])).toBe("es");
    expect(defaultSubtitleLanguage([t("de", true), t("en", true)])).toBe("en");
    expect(defaultSubtitleLanguage([t("ja", true), t("de", true)])).toBe("ja");
    expect(defaultSubtitleLanguage([])).toBeUndefined();
  });

  it("is the only choice of a plan that may not choose the language", () => {
    expect(defaultLanguageOnly(subtitleLanguageChoices(tracks, translations), tracks)).toEqual({ tracks: [{ value: "en", label: "English" }], translations: [] });
  });
});

describe("the language a download sends", () => {
  it("is the chosen one for SRT, VTT and the transcript on a plan that may choose it", () => {
    for (const format of ["srt", "vtt", "transcript"]) expect(languageFor(format, "de", true)).toBe("de");
  });

  it("is none for Best available, for other formats, and for a plan without the right", () => {
    expect(languageFor("srt", "", true)).toBeUndefined();
    expect(languageFor("mp4-720", "de", true)).toBeUndefined();
    expect(languageFor("thumbnail-hd", "de", true)).toBeUndefined();
    for (const format of ["srt", "vtt", "transcript"]) expect(languageFor(format, "de", false)).toBeUndefined();
  });

  it("reaches the download request's body, and is left out of it when there is none", async () => {
    const bodies: unknown[] = [];
    const fetchFn = (async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return Response.json({ id: "dl1", downloadUrl: "/api/v1/dl/t", filename: "Sample clip with subtitles in three languages.de.srt", expiresAt: "t", bytes: 10 });
    }) as unknown as typeof fetch;
    const deps = {
      request: ((url, format, opts) => requestDownload(url, format, { ...opts, fetchFn })) satisfies typeof requestDownload,
      subscribe: () => () => {},
      save: () => {},
      stallTimeoutMs: 5,
    };
    const url = "https://www.youtube.com/watch?v=vidfetchSub";
    const run = (format: string, language: string, canChoose: boolean) => runDownload({ url, format, language: languageFor(format, language, canChoose) }, deps).catch(() => undefined);
    await run("srt", "de", true);
    await run("vtt", "fr", true);
    await run("transcript", "de", false);
    await run("srt", "", true);
    expect(bodies).toEqual([
      { url, format: "srt", language: "de" },
      { url, format: "vtt", language: "fr" },
      { url, format: "transcript" },
      { url, format: "srt" },
    ]);
  });
});
