import { OptionSwitch } from "./option-switch.tsx";

/**
 * The Audio tab's loudness switch (issue 33 §5, decision 066): off by default; on, MP3, M4A and
 * AAC files are evened out to −14 LUFS. The picker sends it only with those formats.
 */
export function NormalizeSwitch({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  return (
    <OptionSwitch
      checked={on}
      onChange={onChange}
      label="Even out loudness (−14 LUFS)"
      testId="normalize-switch"
      hint="Applies to MP3, M4A and AAC files, so they play at about the same volume."
    />
  );
}
