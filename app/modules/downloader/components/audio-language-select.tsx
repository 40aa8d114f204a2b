import { useId } from "react";
import { Label } from "#app/components/ui/label.tsx";
import type { AudioTrackAnswer } from "../api-client.ts";

/**
 * The audio track of the video and audio downloads (issue 33 §5), shown when the video has more
 * than one (dubbed languages, descriptive audio): the original by default, another track by its
 * language. "" is the original.
 */
export function AudioLanguageSelect({ tracks, value, onChange }: { tracks: AudioTrackAnswer[]; value: string; onChange: (language: string) => void }) {
  const id = useId();
  const original = tracks.find((t) => t.default);
  return (
    <div className="mb-3 grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[auto_minmax(0,20rem)] sm:items-center sm:gap-x-4" data-testid="audio-language">
      <Label htmlFor={id}>Audio language</Label>
      <select
        id={id}
        name="audioLanguage"
        value={value}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
        className="h-10 w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 text-sm"
      >
        <option value="">{original ? `${original.name} (original)` : "Original"}</option>
        {tracks
          .filter((t) => !t.default)
          .map((t) => (
            <option key={t.language} value={t.language}>
              {t.name}
            </option>
          ))}
      </select>
      <p id={`${id}-hint`} className="text-xs text-slate-600 sm:col-span-2">
        For MP4, WEBM, MP3, M4A and AAC files.
      </p>
    </div>
  );
}
