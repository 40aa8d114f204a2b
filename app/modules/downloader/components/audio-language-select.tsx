import type { AudioTrackAnswer } from "../api-client.ts";
import { SelectRow } from "./select-row.tsx";

/**
 * The audio track of the video and audio downloads (issue 33 §5), shown when the video has more
 * than one (dubbed languages, descriptive audio): the original by default, another track by its
 * language. "" is the original.
 */
export function AudioLanguageSelect({ tracks, value, onChange }: { tracks: AudioTrackAnswer[]; value: string; onChange: (language: string) => void }) {
  const original = tracks.find((t) => t.default);
  return (
    <SelectRow label="Audio language" name="audioLanguage" value={value} onChange={onChange} testId="audio-language" hint="For MP4, WEBM, MP3, M4A and AAC files.">
      <option value="">{original ? `${original.name} (original)` : "Original"}</option>
      {tracks
        .filter((t) => !t.default)
        .map((t) => (
          <option key={t.language} value={t.language}>
            {t.name}
          </option>
        ))}
    </SelectRow>
  );
}
