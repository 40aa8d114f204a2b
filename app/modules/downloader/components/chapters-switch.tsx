import { OptionSwitch } from "./option-switch.tsx";

/**
 * Split by chapter (issue 33 §2, decision 070), for a video with chapters: off by default; on, a
 * video or audio download is one file per chapter, in a ZIP. Free for everyone.
 */
export function ChaptersSwitch({ count, on, onChange }: { count: number; on: boolean; onChange: (on: boolean) => void }) {
  return (
    <OptionSwitch
      checked={on}
      onChange={onChange}
      label="One file per chapter (ZIP)"
      testId="chapters-switch"
      hint={`This video has ${count} ${count === 1 ? "chapter" : "chapters"}: each becomes its own MP4, WEBM, MP3, M4A or AAC file, all in one ZIP.`}
    />
  );
}
