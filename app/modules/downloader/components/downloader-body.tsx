import { useCallback, useEffect } from "react";
import { keepThumbnailAtHand } from "#app/modules/offline/offline-previews.ts";
import type { FormatOption } from "#engine/types.ts";
import type { FormatTab } from "../format-groups.ts";
import { useOfflineQueue } from "../hooks/use-offline-queue.ts";
import type { LookupState } from "../hooks/use-video-lookup.ts";
import { FormatPicker } from "./format-picker.tsx";
import { LookupError } from "./lookup-error.tsx";
import { OfflineQueuePanel } from "./offline-queue-panel.tsx";
import { PreviewCardShell, PreviewLoading } from "./preview-skeleton.tsx";
import { VideoDetails } from "./video-details.tsx";
import { VideoPlayer } from "./video-player.tsx";

export interface DownloaderBodyProps {
  state: LookupState;
  isPremium: boolean;
  tabs?: FormatTab[];
}

/**
 * Everything after the link form: the preview card, the format picker with real downloads, and
 * the offline queue. Loaded as its own chunk (see downloader.tsx) so the first load stays small.
 */
export default function DownloaderBody({ state, isPremium, tabs }: DownloaderBodyProps) {
  const queue = useOfflineQueue();
  const loaded = state.status === "loaded" ? state.result : null;
  const storedLabels = queue.settings.queueLabels;
  // the video on screen knows its labels; after a reload the queue remembers the ones it stored
  const labelFor = useCallback(
    (formatId: string) => loaded?.formats.find((f) => f.id === formatId)?.label ?? storedLabels[formatId] ?? formatId.toUpperCase(),
    [loaded, storedLabels],
  );
  const { add } = queue;
  const thumbnail = loaded?.video.thumbnail;
  useEffect(() => keepThumbnailAtHand(thumbnail), [thumbnail]);
  const onQueue = useCallback(
    (option: FormatOption) => {
      if (state.status !== "loaded") return;
      const video = state.result.video;
      add({
        videoId: video.id,
        formatId: option.id,
        label: option.label,
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
      ) : state.status === "loaded" ? (
        <PreviewCardShell>
          <p role="status" className="sr-only">
            Found: {state.result.video.title}
          </p>
          <div className="grid gap-6 md:grid-cols-2">
            <VideoPlayer video={state.result.video} />
            <VideoDetails video={state.result.video} />
          </div>
          <FormatPicker formats={state.result.formats} sourceUrl={state.url} isPremium={isPremium} queueInstead={queue.queueing} onQueue={onQueue} tabs={tabs} />
        </PreviewCardShell>
      ) : state.status === "error" ? (
        <LookupError url={state.url} message={state.message} />
      ) : null}
      <OfflineQueuePanel queue={queue} labelFor={labelFor} />
    </>
  );
}
