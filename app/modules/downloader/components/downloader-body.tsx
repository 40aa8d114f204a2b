import { useCallback, useEffect, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { keepThumbnailAtHand } from "#app/modules/offline/offline-previews.ts";
import type { FormatOption } from "#engine/types.ts";
import { isVideoResult, type PlaylistAnswer, type ResolvedVideo } from "../api-client.ts";
import type { FormatTab } from "../format-groups.ts";
import { useOfflineQueue } from "../hooks/use-offline-queue.ts";
import type { LookupState } from "../hooks/use-video-lookup.ts";
import { FormatPicker } from "./format-picker.tsx";
import { LookupError } from "./lookup-error.tsx";
import type { DownloadProfileChoice, PlaylistPlan } from "../downloader-offer.ts";
import { describeMediaOptions, type MediaOptions } from "../media-options.ts";
import { OfflineQueuePanel } from "./offline-queue-panel.tsx";
import { PlaylistPicker } from "./playlist-picker.tsx";
import { PreviewCardShell, PreviewLoading } from "./preview-skeleton.tsx";
import { VideoDetails } from "./video-details.tsx";
import { VideoPlayer } from "./video-player.tsx";

export interface DownloaderBodyProps {
  state: LookupState;
  isPremium: boolean;
  tabs?: FormatTab[];
  /** what the playlist card offers this viewer */
  playlistPlan: PlaylistPlan;
  /** the viewer's plan may choose the subtitles' language (Pro, Ultimate) */
  subtitleLanguages: boolean;
  /** the signed-in viewer's download profiles (Ultimate) */
  profiles?: DownloadProfileChoice[];
  /** load a link into the form and look it up (a playlist entry's "Download this video") */
  onPickVideo: (url: string) => void;
}

/** A subtitle language's name as the video lists it ("German", "French"), else its code. */
function languageName(result: ResolvedVideo, language: string): string {
  return result.subtitles?.find((t) => t.language === language && !t.auto)?.name ?? result.subtitles?.find((t) => t.language === language)?.name ?? result.subtitleTranslations?.find((t) => t.language === language)?.name ?? language;
}

/** Under a video that sits in a playlist: the playlist's name and a way to open it. */
function PartOfPlaylist({ playlist, plan, onPickVideo }: { playlist: PlaylistAnswer; plan: PlaylistPlan; onPickVideo: (url: string) => void }) {
  const [open, setOpen] = useState(false);
  const count = playlist.total ?? playlist.entries.length;
  return (
    <>
      <p className="mt-3 flex flex-wrap items-baseline gap-x-2 text-sm text-slate-700" data-testid="part-of-playlist">
        <span className="[overflow-wrap:anywhere]">
          Part of the playlist <span className="font-medium text-slate-900">{playlist.title}</span> ({count} {count === 1 ? "video" : "videos"})
        </span>
        <Button type="button" variant="link" size="sm" className="h-auto px-0" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? "Hide the playlist" : "Show the playlist"}
        </Button>
      </p>
      {open ? <PlaylistPicker playlist={playlist} plan={plan} onPickVideo={onPickVideo} /> : null}
    </>
  );
}

/**
 * Everything after the link form: the preview card, the format picker with real downloads, and
 * the offline queue. Loaded as its own chunk (see downloader.tsx) so the first load stays small.
 */
export default function DownloaderBody({ state, isPremium, tabs, playlistPlan, subtitleLanguages, profiles, onPickVideo }: DownloaderBodyProps) {
  const queue = useOfflineQueue();
  const loaded = state.status === "loaded" && isVideoResult(state.result) ? state.result : null;
  const storedLabels = queue.settings.queueLabels;
  // the video on screen knows its labels; after a reload the queue remembers the ones it stored
  const labelFor = useCallback(
    (key: string) => loaded?.formats.find((f) => f.id === key)?.label ?? storedLabels[key] ?? key.toUpperCase(),
    [loaded, storedLabels],
  );
  const { add } = queue;
  const thumbnail = loaded?.video.thumbnail;
  useEffect(() => keepThumbnailAtHand(thumbnail), [thumbnail]);
  const onQueue = useCallback(
    (option: FormatOption, language?: string, media?: MediaOptions) => {
      if (state.status !== "loaded" || !isVideoResult(state.result)) return;
      const video = state.result.video;
      // a queued German SRT stays German, a queued clip a clip, and the queue says so
      const details = [language ? languageName(state.result, language) : "", ...describeMediaOptions(media ?? {})].filter(Boolean);
      add({
        videoId: video.id,
        formatId: option.id,
        language,
        media,
        label: details.length > 0 ? `${option.label} (${details.join(", ")})` : option.label,
        title: video.title,
        thumbnail: video.thumbnail || undefined,
        // Non-YouTube media cannot be found again from its id alone.
        sourceUrl: video.platform === "youtube" ? undefined : state.url,
      });
    },
    [add, state],
  );

  return (
    <>
      {state.status === "loading" ? (
        <PreviewLoading />
      ) : state.status === "loaded" && !isVideoResult(state.result) ? (
        <>
          <p role="status" className="sr-only">
            Found the playlist: {state.result.playlist.title}
          </p>
          <PlaylistPicker key={state.url} playlist={state.result.playlist} plan={playlistPlan} onPickVideo={onPickVideo} />
        </>
      ) : state.status === "loaded" && loaded ? (
        <>
          <PreviewCardShell>
            <p role="status" className="sr-only">
              Found: {loaded.video.title}
            </p>
            <div className="grid gap-6 md:grid-cols-2">
              <VideoPlayer video={loaded.video} />
              <VideoDetails video={loaded.video} />
            </div>
            <FormatPicker
              formats={loaded.formats}
              sourceUrl={state.url}
              isPremium={isPremium}
              queueInstead={queue.queueing}
              onQueue={onQueue}
              tabs={tabs}
              subtitles={loaded.subtitles}
              subtitleTranslations={loaded.subtitleTranslations}
              canChooseLanguage={subtitleLanguages}
              profiles={profiles}
              durationSeconds={loaded.video.durationSeconds}
              audioTracks={loaded.audioTracks}
              platform={loaded.video.platform}
              chapters={loaded.chapters}
            />
          </PreviewCardShell>
          {loaded.playlist ? <PartOfPlaylist key={state.url} playlist={loaded.playlist} plan={playlistPlan} onPickVideo={onPickVideo} /> : null}
        </>
      ) : state.status === "error" ? (
        <LookupError url={state.url} message={state.message} />
      ) : null}
      <OfflineQueuePanel queue={queue} labelFor={labelFor} />
    </>
  );
}
