import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError, isRetryable } from "../api-client.ts";
import { SpeedMeter } from "../format-bytes.ts";
import { MAX_ATTEMPTS, RETRY_DELAY_MS, RetriesExhaustedError, withRetries } from "../retry.ts";
import { runDownload, type FilesProgress, type ProgressEvent } from "../run-download.ts";
import type { MediaOptions } from "../media-options.ts";

/** Spec §9: the success (and error) state stays 3 s before the button resets. */
export const RESULT_HOLD_MS = 3000;

export interface DownloadProgressView {
  bytes: number;
  total: number | null;
  /** bytes per second, smoothed */
  speed: number;
  state: string;
  /** a ZIP's files (one per chapter of a split), once the progress events carry them */
  files?: FilesProgress;
}

/**
 * One progress event as shown, keeping what the earlier ones said: the total (an estimate from the
 * ticket) and a ZIP's files (a split by chapter says how far it is in files beside its bytes).
 */
export function progressViewOf(p: ProgressEvent, speed: number, before: DownloadProgressView | null | undefined): DownloadProgressView {
  const files = p.files ?? before?.files;
  return { bytes: p.bytes, total: p.total ?? before?.total ?? null, speed, state: p.state, ...(files ? { files } : {}) };
}

export interface ActiveDownload {
  /** the option's format id, or a profile's key (`profileKey`) */
  formatId: string;
  label: string;
  phase: "downloading" | "success" | "error";
  attempt: number;
  progress: DownloadProgressView | null;
  /** set when the server could not report progress; the browser still saves the file */
  untracked?: boolean;
  filename?: string;
}

export interface FinalFailure {
  formatId: string;
  message: string;
}

/** What a profile's download is known by in `active` and `failure` (never a format id). */
export function profileKey(profileId: string): string {
  return `profile:${profileId}`;
}

/** Spec §8 "Other toasts": thumbnail and transcript failures have their own wording. */
export function failureToast(option: { id: string; label: string }, err: unknown): { title: string; description?: string } {
  const cause = err instanceof RetriesExhaustedError ? err.last : err;
  const code = cause instanceof ApiError ? cause.code : "";
  const message = cause instanceof Error ? cause.message : "";
  if (option.id === "thumbnail-hd") {
    return code === "thumbnail.unavailable" ? { title: "Thumbnail not available" } : { title: "Failed to download thumbnail", description: message || undefined };
  }
  if (option.id === "transcript" || option.id === "srt" || option.id === "vtt") {
    return code === "transcript.unavailable"
      ? { title: "Not Available", description: "Transcript is not available for this video" }
      : { title: "Failed to download transcript", description: message || undefined };
  }
  return { title: "Download Failed", description: message || undefined };
}

/** The sentence left under a format after its last try failed. */
export function finalMessage(err: unknown): string {
  const cause = err instanceof RetriesExhaustedError ? err.last : err;
  const message = cause instanceof Error && cause.message ? cause.message : "The download failed. Please try again.";
  if (err instanceof RetriesExhaustedError && err.attempts >= MAX_ATTEMPTS) return `Download failed after ${err.attempts} attempts. ${message}`;
  return message;
}

/**
 * Spec §4 "Format button": idle → downloading (others disabled) → success for 3 s, or error.
 * A failed attempt is retried up to 3 attempts, 1.5 s apart; after the last one the final message
 * stays and the button resets. Every attempt is a real download: a signed link the browser saves,
 * followed on the progress stream until the server has sent the whole file.
 */
export function useFormatDownloads(sourceUrl: string | null) {
  const [active, setActive] = useState<ActiveDownload | null>(null);
  const [failure, setFailure] = useState<FinalFailure | null>(null);
  const controller = useRef<AbortController | null>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      controller.current?.abort();
      if (resetTimer.current) clearTimeout(resetTimer.current);
    },
    [],
  );

  // A new video cancels the follow-up of the previous one (the browser keeps saving its file).
  useEffect(() => {
    controller.current?.abort();
    if (resetTimer.current) clearTimeout(resetTimer.current);
    setActive(null);
    setFailure(null);
  }, [sourceUrl]);

  const start = useCallback(
    /**
     * `language`: the subtitles' language for srt, vtt or transcript (none: the video's own pick).
     * `profile`: a download profile of the viewer's (its format is `option`'s id, its name the label).
     * `media`: the picker's tags switch, clip, audio track, loudness and SponsorBlock choices (none: a tagged, whole, original file).
     */
    async (option: { id: string; label: string }, language?: string, profile?: string, media: MediaOptions = {}) => {
      if (!sourceUrl) return;
      if (resetTimer.current) clearTimeout(resetTimer.current);
      const ctrl = new AbortController();
      controller.current = ctrl;
      setFailure(null);
      const key = profile ? profileKey(profile) : option.id;
      const base = { formatId: key, label: option.label };
      setActive({ ...base, phase: "downloading", attempt: 1, progress: null });
      try {
        const outcome = await withRetries(
          (attempt) => {
            const meter = new SpeedMeter();
            setActive({ ...base, phase: "downloading", attempt, progress: null });
            return runDownload({
              url: sourceUrl,
              format: option.id,
              language,
              profile,
              ...media,
              signal: ctrl.signal,
              onTicket: (t) => setActive((a) => (a && a.formatId === key ? { ...a, filename: t.filename, progress: { bytes: 0, total: t.bytes, speed: 0, state: "pending" } } : a)),
              onProgress: (p) => {
                const speed = meter.sample(p.bytes, performance.now());
                setActive((a) => (a && a.formatId === key ? { ...a, progress: progressViewOf(p, speed, a.progress) } : a));
              },
            });
          },
          { attempts: MAX_ATTEMPTS, delayMs: RETRY_DELAY_MS, shouldRetry: isRetryable, signal: ctrl.signal },
        );
        if (ctrl.signal.aborted) return;
        setActive((a) => ({ ...base, attempt: a?.attempt ?? 1, phase: "success", progress: a?.progress ?? null, untracked: !outcome.tracked, filename: outcome.ticket.filename }));
      } catch (err) {
        if (ctrl.signal.aborted) return;
        const t = failureToast(option, err);
        toast.error(t.title, t.description ? { description: t.description } : undefined);
        setFailure({ formatId: key, message: finalMessage(err) });
        setActive((a) => ({ ...base, attempt: a?.attempt ?? 1, phase: "error", progress: a?.progress ?? null }));
      }
      resetTimer.current = setTimeout(() => setActive(null), RESULT_HOLD_MS);
    },
    [sourceUrl],
  );

  return { active, failure, start };
}
