import { FileText, Film, ImageIcon, Lock, Music } from "#app/components/icons.ts";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#app/components/ui/tabs.tsx";
import type { FormatOption, Platform } from "#engine/types.ts";
import type { SubtitleTrackAnswer, SubtitleTranslationAnswer } from "../api-client.ts";
import { FORMAT_TABS, groupFormats, optionExplanation, optionNote, optionStatus, type FormatTab } from "../format-groups.ts";
import { useFormatDownloads } from "../hooks/use-format-downloads.ts";
import { DownloadAnnouncer, DownloadProgressBar } from "./download-progress.tsx";
import { FormatButton, type FormatButtonState } from "./format-button.tsx";
import { SubtitleLanguageSelect } from "./subtitle-language-select.tsx";
import { TagsSwitch } from "./tags-switch.tsx";
import { AudioLanguageSelect } from "./audio-language-select.tsx";
import type { AudioTrackAnswer } from "../api-client.ts";
import { ClipFields } from "./clip-fields.tsx";
import { checkClip, clipSize, NO_CLIP, type ClipChoice } from "../clip-choice.ts";
import { ProfileButtons } from "./profile-buttons.tsx";
import { NormalizeSwitch } from "./normalize-switch.tsx";
import { NO_SPONSORBLOCK, SponsorBlockFields, type SponsorBlockChoice } from "./sponsorblock-fields.tsx";
import { carriesSubtitles, mediaOptionsFor, takesNormalize, type MediaOptions } from "../media-options.ts";
import type { DownloadProfileChoice } from "../downloader-offer.ts";
import { defaultLanguageOnly, isOffered, LANGUAGE_FORMATS, languageFor, subtitleLanguageChoices } from "../subtitle-languages.ts";
import { NO_SUBTITLES, SubtitlesInVideo, type SubtitlesChoice } from "./subtitles-in-video.tsx";
import { ChaptersSwitch } from "./chapters-switch.tsx";
import type { Chapter } from "#engine/types.ts";

const ICONS = { video: Film, audio: Music, image: ImageIcon, text: FileText } as const;

export interface FormatPickerProps {
  formats: FormatOption[];
  /** the link the formats were resolved from (what the API downloads) */
  sourceUrl: string;
  isPremium?: boolean;
  /** offline (or offline mode): a click queues the download instead of starting it */
  queueInstead?: boolean;
  /** `language`: the chosen subtitle language, when the option is one it applies to; `media`: the file's media options, kept in the queue */
  onQueue?: (option: FormatOption, language?: string, media?: MediaOptions) => void;
  /** tabs to show, in order (the Shorts page leaves out "Other") */
  tabs?: FormatTab[];
  /** the video's caption tracks and the languages they can be machine-translated into */
  subtitles?: SubtitleTrackAnswer[];
  subtitleTranslations?: SubtitleTranslationAnswer[];
  /** the viewer's plan may choose the subtitle language (Pro, Ultimate) */
  canChooseLanguage?: boolean;
  /** the signed-in viewer's download profiles (Ultimate): one-click buttons above the formats */
  profiles?: DownloadProfileChoice[];
  /** the video's length (0 = unknown): a clip is checked against it and its size estimated from it */
  durationSeconds?: number;
  /** the video's audio tracks (issue 33 §5): with more than one, a choice of language for video and audio files */
  audioTracks?: AudioTrackAnswer[];
  /** where the video is from: SponsorBlock is offered for YouTube videos only */
  platform?: Platform;
  /** the video's chapters (issue 33 §2): with any, a split by chapter for video and audio files */
  chapters?: Chapter[];
}

/** A click on an option that does not exist for this video explains why, in the spec's words. */
function explainUnavailable(option: FormatOption) {
  if (option.id === "thumbnail-hd") return toast.error("Thumbnail not available");
  if (option.id === "transcript") return toast.error("Not Available", { description: "Transcript is not available for this video" });
  toast.error("Not Available", { description: option.note ?? "This format is not available for this video." });
}

export function FormatPicker({
  formats,
  sourceUrl,
  isPremium = false,
  queueInstead = false,
  onQueue,
  tabs = ["video", "audio", "other"],
  subtitles,
  subtitleTranslations,
  canChooseLanguage = false,
  profiles = [],
  durationSeconds = 0,
  audioTracks = [],
  platform,
  chapters = [],
}: FormatPickerProps) {
  const { active, failure, start } = useFormatDownloads(sourceUrl);
  const groups = groupFormats(formats);
  const busy = active?.phase === "downloading";
  const shownTabs = FORMAT_TABS.filter((t) => tabs.includes(t.value));
  const choices = subtitleLanguageChoices(subtitles, subtitleTranslations);
  // the choice belongs to the video it was made for: another video starts from "Best available"
  const [chosen, setChosen] = useState<{ url: string; language: string }>({ url: sourceUrl, language: "" });
  const language = chosen.url === sourceUrl && isOffered(choices, chosen.language) ? chosen.language : "";
  const hasSubtitles = (subtitles?.length ?? 0) > 0;
  // "Leave files bare": no tags written into MP3, M4A, AAC and MP4 files (issue 33 §3)
  const [bare, setBare] = useState(false);
  const tags = bare ? false : undefined;
  // a clip of video and audio formats (issue 33 §1); the fields belong to the video they were typed for
  const [clipFor, setClip] = useState<{ url: string; choice: ClipChoice }>({ url: sourceUrl, choice: NO_CLIP });
  const clipChoice = clipFor.url === sourceUrl ? clipFor.choice : NO_CLIP;
  const clipCheck = checkClip(clipChoice, durationSeconds);
  const [clipError, setClipError] = useState<{ field: "start" | "end"; message: string } | null>(null);
  // the audio track ("": the original), for the video it was chosen for
  const [audioFor, setAudio] = useState<{ url: string; language: string }>({ url: sourceUrl, language: "" });
  const audioLanguage = audioFor.url === sourceUrl && audioTracks.some((t) => t.language === audioFor.language) ? audioFor.language : "";
  // loudness evened out (issue 33 §5): a switch like the tags one, sent only with the formats that take it
  const [normalize, setNormalize] = useState(false);
  // SponsorBlock (issue 33 §4), for the YouTube video it was picked for; chapters are tags, so a bare file has them cut
  const sponsorBlockOffered = platform === "youtube";
  const [sponsorFor, setSponsor] = useState<{ url: string; choice: SponsorBlockChoice }>({ url: sourceUrl, choice: NO_SPONSORBLOCK });
  const sponsorChoice = sponsorBlockOffered && sponsorFor.url === sourceUrl ? sponsorFor.choice : NO_SPONSORBLOCK;
  const sponsorblock = sponsorChoice.categories.length > 0 ? { categories: sponsorChoice.categories, action: bare ? ("cut" as const) : sponsorChoice.action } : null;
  const sponsorFields = sponsorBlockOffered ? <SponsorBlockFields value={sponsorChoice} bare={bare} onChange={(choice) => setSponsor({ url: sourceUrl, choice })} /> : null;
  // subtitles into an MP4 or WEBM (issue 33 §6), for the video they were chosen for: the `subtitles` right is the one SRT and VTT
  // need (the server says per option whether the caller holds it), and a language other than the default also `subtitleLanguages`
  const subtitlesRight = formats.find((f) => f.id === "srt" || f.id === "vtt")?.allowed ?? isPremium;
  const embedChoices = canChooseLanguage ? choices : defaultLanguageOnly(choices, subtitles);
  const [embedFor, setEmbed] = useState<{ url: string; choice: SubtitlesChoice }>({ url: sourceUrl, choice: NO_SUBTITLES });
  const embedChoice = subtitlesRight && embedFor.url === sourceUrl && isOffered(embedChoices, embedFor.choice.language) ? embedFor.choice : NO_SUBTITLES;
  const embedded = embedChoice.language ? { language: embedChoice.language, mode: embedChoice.mode } : null;
  // one file per chapter (issue 33 §2), for the video it was switched on for
  const [splitFor, setSplit] = useState<string | null>(null);
  const split = chapters.length > 0 && splitFor === sourceUrl;
  const clipFields = (
    <ClipFields
      value={clipChoice}
      error={clipError}
      durationSeconds={durationSeconds}
      sourceUrl={sourceUrl}
      onChange={(choice) => {
        setClip({ url: sourceUrl, choice });
        setClipError(null);
      }}
    />
  );

  function choose(option: FormatOption) {
    const lang = languageFor(option.id, language, canChooseLanguage);
    const cuttable = option.icon === "video" || option.icon === "audio";
    if (cuttable && !clipCheck.ok) return setClipError({ field: clipCheck.field, message: clipCheck.message });
    const clip = cuttable && clipCheck.ok ? clipCheck.clip : null;
    const media = mediaOptionsFor(option, { tags, clip, audioLanguage, normalize, sponsorblock, subtitles: embedded, chapters: split ? "split" : undefined });
    // the offline queue keeps them too (local-settings.ts), so a queued file is the one chosen
    if (queueInstead && onQueue) return onQueue(option, lang, media);
    void start(option, lang, undefined, media);
  }

  // the server takes the profile's own format, language and file name
  function downloadWith(profile: DownloadProfileChoice) {
    void start({ id: profile.format, label: profile.name }, undefined, profile.id, { tags });
  }

  return (
    <section aria-labelledby="formats-heading" className="mt-6">
      <h2 id="formats-heading" className="text-lg font-semibold text-slate-900">
        Choose a format
      </h2>
      {profiles.length > 0 ? (
        <ProfileButtons
          profiles={profiles}
          formatLabel={(id) => formats.find((f) => f.id === id)?.label ?? id}
          active={active}
          failure={failure}
          offline={queueInstead}
          onDownload={downloadWith}
        />
      ) : null}
      <Tabs defaultValue={shownTabs[0]?.value ?? "video"} className="mt-3">
        <TabsList aria-label="Format type">
          {shownTabs.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {shownTabs.map((t) => (
          <TabsContent key={t.value} value={t.value}>
            {t.value === "video" || t.value === "audio" ? (
              <>
                {clipFields}
                {audioTracks.length > 1 ? <AudioLanguageSelect tracks={audioTracks} value={audioLanguage} onChange={(language) => setAudio({ url: sourceUrl, language })} /> : null}
                {t.value === "audio" && groups.audio.some((o) => takesNormalize(o.id)) ? <NormalizeSwitch on={normalize} onChange={setNormalize} /> : null}
                {t.value === "video" && hasSubtitles && groups.video.some((o) => carriesSubtitles(o.id)) ? (
                  <SubtitlesInVideo choices={embedChoices} value={embedChoice} locked={!subtitlesRight} onChange={(choice) => setEmbed({ url: sourceUrl, choice })} />
                ) : null}
                {sponsorFields}
                {chapters.length > 0 ? <ChaptersSwitch count={chapters.length} on={split} onChange={(on) => setSplit(on ? sourceUrl : null)} /> : null}
                <TagsSwitch bare={bare} onChange={setBare} />
              </>
            ) : null}
            {hasSubtitles && groups[t.value].some((o) => LANGUAGE_FORMATS.includes(o.id)) ? (
              <SubtitleLanguageSelect choices={choices} value={language} onChange={(l) => setChosen({ url: sourceUrl, language: l })} canChoose={canChooseLanguage} />
            ) : null}
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
              {groups[t.value].map((option) => {
                const status = optionStatus(option, isPremium);
                const Icon = ICONS[option.icon];
                const mine = active?.formatId === option.id ? active : null;
                const state: FormatButtonState = mine ? (mine.phase === "downloading" ? "downloading" : mine.phase) : "idle";
                const explanation = optionExplanation(option, status);
                const note = optionNote(option, status);
                const failed = failure?.formatId === option.id ? failure.message : null;
                // a clip's size is its share of the file's, and always an estimate
                const size = (option.icon === "video" || option.icon === "audio" ? clipSize(option.bytes, clipCheck, durationSeconds) : null) ?? option.size;
                return (
                  <li key={option.id} className="p-3" data-format-id={option.id} data-testid={`format-${option.id}`}>
                    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                      <div className="flex min-w-0 items-start gap-3">
                        <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-600" />
                        <div className="min-w-0">
                          <p className="font-medium text-slate-900">
                            {option.label}
                            {option.premium ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">Premium</span> : null}
                          </p>
                          <p className="text-sm text-slate-600">
                            {option.quality} · {option.format}
                            {option.available && option.size ? (
                              <>
                                {" "}
                                · <span data-testid="format-size">{size}</span>
                                {size !== option.size ? <span className="text-xs text-slate-500"> (clip, estimated)</span> : null}
                              </>
                            ) : null}
                          </p>
                          {explanation ? <p className="mt-1 text-sm text-slate-600">{explanation}</p> : null}
                          {note ? <p className="mt-1 text-xs text-slate-500">{note}</p> : null}
                          {failed ? (
                            <p role="alert" className="mt-1 text-sm font-medium text-destructive" data-testid="format-error">
                              {failed}
                            </p>
                          ) : null}
                        </div>
                      </div>
                      <div className="shrink-0 sm:ml-4">
                        {status === "locked" ? (
                          <Link
                            to="/premium"
                            className="inline-flex h-9 min-w-32 items-center justify-center gap-2 rounded-md border border-amber-400 bg-amber-50 px-3 text-sm font-medium text-amber-900 hover:bg-amber-100"
                          >
                            <Lock aria-hidden className="size-4" /> Unlock<span className="sr-only"> {option.label}</span> with Premium
                          </Link>
                        ) : status === "unavailable" ? (
                          <button
                            type="button"
                            aria-disabled="true"
                            onClick={() => explainUnavailable(option)}
                            className="inline-flex h-9 min-w-32 cursor-not-allowed items-center justify-center rounded-md border border-slate-300 bg-slate-100 px-3 text-sm font-medium text-slate-600"
                          >
                            Unavailable<span className="sr-only"> {option.label}</span>
                          </button>
                        ) : (
                          <FormatButton label={option.label} state={state} attempt={mine?.attempt ?? 1} disabled={busy && !mine} onClick={() => choose(option)} />
                        )}
                      </div>
                    </div>
                    {/* the bar sits in the row the visitor pressed, not below every row */}
                    {mine && (mine.phase === "downloading" || mine.phase === "success") ? (
                      <div className="mt-3">
                        <DownloadProgressBar active={mine} />
                      </div>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </TabsContent>
        ))}
      </Tabs>
      <DownloadAnnouncer active={active} />
    </section>
  );
}
